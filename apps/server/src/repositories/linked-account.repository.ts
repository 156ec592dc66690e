import { and, eq, lt, ne, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from '../db/connection.ts';
import { jobs, ledgerEntries, ledgerTransactions, paymentFingerprints } from '../db/schema.ts';

// Accounts of one person on both sides of the market, as the payment provider can tell: a
// provider and an enterprise that share a payment instrument's fingerprint (the card that paid
// credits is the debit card payouts go to, say). Never by email domain, which strangers share.

export type FingerprintSource = 'purchase' | 'payout_account';

/**
 * SQL true when the users `a` and `b` share a payment fingerprint: for the scheduler's lease
 * query, which must never hand a provider's node a job of an enterprise linked to that provider.
 */
export function sharesPaymentFingerprint(a: SQL | string, b: SQL | string): SQL {
  return sql`EXISTS (
    SELECT 1 FROM ${paymentFingerprints} AS a_print
    JOIN ${paymentFingerprints} AS b_print ON b_print.fingerprint = a_print.fingerprint
    WHERE a_print.user_id = ${a} AND b_print.user_id = ${b}
  )`;
}

export function createLinkedAccountRepository(db: Database) {
  return {
    /** Records what was seen (once per user and fingerprint); answers the fingerprints that were new. */
    async recordFingerprints(
      userId: string,
      fingerprints: readonly string[],
      source: FingerprintSource,
      now: Date,
    ): Promise<string[]> {
      if (fingerprints.length === 0) return [];
      const rows = await db
        .insert(paymentFingerprints)
        .values(
          fingerprints.map((fingerprint) => ({ userId, fingerprint, source, createdAt: now })),
        )
        .onConflictDoNothing()
        .returning({ fingerprint: paymentFingerprints.fingerprint });
      return rows.map((row) => row.fingerprint);
    },

    /** The other accounts that share a payment fingerprint with `userId`. */
    async linkedUserIds(userId: string): Promise<string[]> {
      const theirs = alias(paymentFingerprints, 'their_print');
      const rows = await db
        .selectDistinct({ userId: theirs.userId })
        .from(paymentFingerprints)
        .innerJoin(theirs, eq(theirs.fingerprint, paymentFingerprints.fingerprint))
        .where(and(eq(paymentFingerprints.userId, userId), ne(theirs.userId, userId)));
      return rows.map((row) => row.userId).sort();
    },

    /**
     * What `account` (a provider's pending earnings) received before `until` for jobs of
     * enterprises linked to `providerId`: held at settlement until a person has looked.
     */
    async linkedEarningsBefore(
      providerId: string,
      accountId: string,
      until: Date,
    ): Promise<number> {
      const [row] = await db
        .select({
          total: sql<number>`COALESCE(SUM(${ledgerEntries.amountMicros}), 0)`.mapWith(Number),
        })
        .from(ledgerEntries)
        .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
        .innerJoin(jobs, eq(jobs.id, ledgerTransactions.jobId))
        .where(
          and(
            eq(ledgerEntries.accountId, accountId),
            lt(ledgerEntries.createdAt, until),
            sharesPaymentFingerprint(providerId, sql`${jobs.ownerId}`),
          ),
        );
      return row?.total ?? 0;
    },
  };
}
