import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/connection.ts';
import {
  creditPurchases,
  ledgerAccounts,
  paymentAccounts,
  payouts,
  users,
  type CreditPurchaseRow,
  type PaymentAccountRow,
  type PayoutRow,
} from '../db/schema.ts';

export type NewCreditPurchase = Pick<
  CreditPurchaseRow,
  'userId' | 'amountMicros' | 'status' | 'provider' | 'idempotencyKey'
>;
export type NewPayout = Pick<
  PayoutRow,
  'userId' | 'amountMicros' | 'status' | 'provider' | 'idempotencyKey' | 'isAutomatic'
>;

/** Connected accounts, credit purchases and payouts: the records next to the ledger's money. */
export function createPaymentRepository(db: Database) {
  return {
    async findAccountOfUser(userId: string): Promise<PaymentAccountRow | undefined> {
      const [row] = await db
        .select()
        .from(paymentAccounts)
        .where(eq(paymentAccounts.userId, userId))
        .limit(1);
      return row;
    },

    async findAccountById(accountId: string): Promise<PaymentAccountRow | undefined> {
      const [row] = await db
        .select()
        .from(paymentAccounts)
        .where(eq(paymentAccounts.accountId, accountId))
        .limit(1);
      return row;
    },

    async upsertAccount(account: {
      userId: string;
      provider: string;
      accountId: string;
      payoutsEnabled: boolean;
      currentlyDue: string[];
      now: Date;
    }): Promise<void> {
      const { now, ...values } = account;
      await db
        .insert(paymentAccounts)
        .values({ ...values, createdAt: now, updatedAt: now })
        .onConflictDoUpdate({
          target: paymentAccounts.userId,
          set: {
            provider: values.provider,
            accountId: values.accountId,
            payoutsEnabled: values.payoutsEnabled,
            currentlyDue: values.currentlyDue,
            updatedAt: now,
          },
        });
    },

    async updateAccountStatus(
      accountId: string,
      status: { payoutsEnabled: boolean; currentlyDue: string[] },
      now: Date,
    ): Promise<void> {
      await db
        .update(paymentAccounts)
        .set({
          payoutsEnabled: status.payoutsEnabled,
          currentlyDue: status.currentlyDue,
          updatedAt: now,
        })
        .where(eq(paymentAccounts.accountId, accountId));
    },

    /** Undefined when (user, key) was used before: the unique index decides. */
    async insertPurchase(purchase: NewCreditPurchase): Promise<CreditPurchaseRow | undefined> {
      const [row] = await db
        .insert(creditPurchases)
        .values(purchase)
        .onConflictDoNothing()
        .returning();
      return row;
    },

    async findPurchaseByKey(userId: string, key: string): Promise<CreditPurchaseRow | undefined> {
      const [row] = await db
        .select()
        .from(creditPurchases)
        .where(and(eq(creditPurchases.userId, userId), eq(creditPurchases.idempotencyKey, key)))
        .limit(1);
      return row;
    },

    async findPurchase(id: string): Promise<CreditPurchaseRow | undefined> {
      const [row] = await db.select().from(creditPurchases).where(eq(creditPurchases.id, id));
      return row;
    },

    async lockPurchase(id: string): Promise<CreditPurchaseRow | undefined> {
      const [row] = await db
        .select()
        .from(creditPurchases)
        .where(eq(creditPurchases.id, id))
        .for('update');
      return row;
    },

    async updatePurchase(
      id: string,
      changes: Partial<Pick<CreditPurchaseRow, 'status' | 'reference' | 'updatedAt'>>,
    ): Promise<void> {
      await db.update(creditPurchases).set(changes).where(eq(creditPurchases.id, id));
    },

    async insertPayout(payout: NewPayout): Promise<PayoutRow | undefined> {
      const [row] = await db.insert(payouts).values(payout).onConflictDoNothing().returning();
      return row;
    },

    async findPayoutByKey(userId: string, key: string): Promise<PayoutRow | undefined> {
      const [row] = await db
        .select()
        .from(payouts)
        .where(and(eq(payouts.userId, userId), eq(payouts.idempotencyKey, key)))
        .limit(1);
      return row;
    },

    async lockPayout(id: string): Promise<PayoutRow | undefined> {
      const [row] = await db.select().from(payouts).where(eq(payouts.id, id)).for('update');
      return row;
    },

    async updatePayout(
      id: string,
      changes: Partial<Pick<PayoutRow, 'status' | 'reference' | 'failureReason' | 'updatedAt'>>,
    ): Promise<PayoutRow | undefined> {
      const [row] = await db.update(payouts).set(changes).where(eq(payouts.id, id)).returning();
      return row;
    },

    /** Payouts still waiting for a clear answer from the provider, oldest first. */
    async listPendingPayoutsBefore(cutoff: Date, limit: number): Promise<PayoutRow[]> {
      return db
        .select()
        .from(payouts)
        .where(and(eq(payouts.status, 'pending'), lt(payouts.createdAt, cutoff)))
        .orderBy(payouts.createdAt)
        .limit(limit);
    },

    /** Providers with unsettled earnings (the settlement run's work list). */
    async providersWithPendingEarnings(): Promise<string[]> {
      const rows = await db
        .select({ userId: ledgerAccounts.userId })
        .from(ledgerAccounts)
        .where(
          and(eq(ledgerAccounts.kind, 'provider_pending'), gt(ledgerAccounts.balanceMicros, 0)),
        );
      return rows.flatMap((row) => (row.userId ? [row.userId] : []));
    },

    /**
     * Providers whose available earnings reached their minimum payout and whose connected account
     * can receive payouts (the automatic payout's work list).
     */
    async providersDueAutomaticPayout(): Promise<{ userId: string; availableMicros: number }[]> {
      const rows = await db
        .select({ userId: users.id, availableMicros: ledgerAccounts.balanceMicros })
        .from(ledgerAccounts)
        .innerJoin(users, eq(users.id, ledgerAccounts.userId))
        .innerJoin(paymentAccounts, eq(paymentAccounts.userId, users.id))
        .where(
          and(
            eq(ledgerAccounts.kind, 'provider_available'),
            sql`${ledgerAccounts.balanceMicros} >= ${users.minimumPayoutMicros}`,
            eq(paymentAccounts.payoutsEnabled, true),
            sql`${users.deletedAt} IS NULL`,
          ),
        );
      return rows;
    },
  };
}

export type PaymentRepository = ReturnType<typeof createPaymentRepository>;
