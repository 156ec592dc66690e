import { and, asc, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/connection.ts';
import {
  ledgerAccounts,
  ledgerEntries,
  ledgerTransactions,
  type LedgerAccountKind,
  type LedgerAccountRow,
  type LedgerTransactionKind,
  type LedgerTransactionRow,
} from '../db/schema.ts';

/** The accounts whose sum is "my money" in a user's history: moves between them are not shown. */
export const WALLET_ACCOUNT_KINDS: readonly LedgerAccountKind[] = [
  'enterprise_credits',
  'enterprise_holds',
  'provider_pending',
  'provider_available',
];

export interface NewLedgerTransaction {
  kind: LedgerTransactionKind;
  description: string;
  jobId: string | null;
  nodeId: string | null;
  idempotencyKey: string | null;
  createdAt: Date;
}

export interface HistoryRow {
  id: string;
  kind: LedgerTransactionKind;
  description: string;
  jobId: string | null;
  createdAt: Date;
  amountMicros: number;
}

export interface HistoryFilter {
  userId: string;
  /** in: net above 0; out: net below 0. */
  direction?: 'in' | 'out' | undefined;
  from?: Date | undefined;
  until?: Date | undefined;
}

export interface LedgerProblem {
  what: string;
  detail: string;
}

export function createLedgerRepository(db: Database) {
  /** One row per ledger transaction that changed the user's own money, with its net amount. */
  function history(filter: HistoryFilter) {
    const conditions: SQL[] = [
      eq(ledgerAccounts.userId, filter.userId),
      inArray(ledgerAccounts.kind, [...WALLET_ACCOUNT_KINDS]),
    ];
    if (filter.from) conditions.push(gte(ledgerEntries.createdAt, filter.from));
    if (filter.until) conditions.push(lt(ledgerEntries.createdAt, filter.until));
    const net = sql<number>`SUM(${ledgerEntries.amountMicros})`.mapWith(Number);
    const having =
      filter.direction === 'in'
        ? sql`SUM(${ledgerEntries.amountMicros}) > 0`
        : filter.direction === 'out'
          ? sql`SUM(${ledgerEntries.amountMicros}) < 0`
          : sql`SUM(${ledgerEntries.amountMicros}) <> 0`;
    return db
      .select({
        id: ledgerTransactions.id,
        kind: ledgerTransactions.kind,
        description: ledgerTransactions.description,
        jobId: ledgerTransactions.jobId,
        createdAt: ledgerTransactions.createdAt,
        amountMicros: net.as('amount_micros'),
      })
      .from(ledgerEntries)
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
      .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
      .where(and(...conditions))
      .groupBy(ledgerTransactions.id)
      .having(having)
      .as('history');
  }

  return {
    /** The account, created on first use (concurrent creators meet on the unique constraint). */
    async ensureAccount(kind: LedgerAccountKind, userId: string | null): Promise<LedgerAccountRow> {
      await db.insert(ledgerAccounts).values({ kind, userId }).onConflictDoNothing();
      const [row] = await db
        .select()
        .from(ledgerAccounts)
        .where(
          and(
            eq(ledgerAccounts.kind, kind),
            userId === null
              ? sql`${ledgerAccounts.userId} IS NULL`
              : eq(ledgerAccounts.userId, userId),
          ),
        )
        .limit(1);
      if (!row) throw new Error(`Ledger account ${kind} could not be created`);
      return row;
    },

    /** Locks the accounts for the rest of the transaction, in id order so two postings never deadlock. */
    async lockAccounts(ids: string[]): Promise<LedgerAccountRow[]> {
      if (ids.length === 0) return [];
      return db
        .select()
        .from(ledgerAccounts)
        .where(inArray(ledgerAccounts.id, ids))
        .orderBy(asc(ledgerAccounts.id))
        .for('update');
    },

    async findTransactionByKey(key: string): Promise<LedgerTransactionRow | undefined> {
      const [row] = await db
        .select()
        .from(ledgerTransactions)
        .where(eq(ledgerTransactions.idempotencyKey, key))
        .limit(1);
      return row;
    },

    /** What a transaction moved into accounts of `kind` (e.g. the size of a job's hold). */
    async amountMovedInto(transactionId: string, kind: LedgerAccountKind): Promise<number> {
      const [row] = await db
        .select({
          total: sql<number>`COALESCE(SUM(${ledgerEntries.amountMicros}), 0)`.mapWith(Number),
        })
        .from(ledgerEntries)
        .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
        .where(and(eq(ledgerEntries.transactionId, transactionId), eq(ledgerAccounts.kind, kind)));
      return row?.total ?? 0;
    },

    async insertTransaction(transaction: NewLedgerTransaction): Promise<LedgerTransactionRow> {
      const [row] = await db.insert(ledgerTransactions).values(transaction).returning();
      if (!row) throw new Error('Ledger transaction was not inserted');
      return row;
    },

    async insertEntries(
      transactionId: string,
      createdAt: Date,
      legs: { accountId: string; amountMicros: number }[],
    ): Promise<void> {
      await db
        .insert(ledgerEntries)
        .values(legs.map((leg) => ({ ...leg, transactionId, createdAt })));
    },

    async addToBalance(accountId: string, amountMicros: number): Promise<void> {
      await db
        .update(ledgerAccounts)
        .set({ balanceMicros: sql`${ledgerAccounts.balanceMicros} + ${amountMicros}` })
        .where(eq(ledgerAccounts.id, accountId));
    },

    /** The user's balances by account kind (0 for accounts never used). */
    async balancesOfUser(userId: string): Promise<Record<LedgerAccountKind, number>> {
      const rows = await db
        .select({ kind: ledgerAccounts.kind, balance: ledgerAccounts.balanceMicros })
        .from(ledgerAccounts)
        .where(eq(ledgerAccounts.userId, userId));
      const balances = {
        enterprise_credits: 0,
        enterprise_holds: 0,
        provider_pending: 0,
        provider_available: 0,
        payouts_in_flight: 0,
        unclaimed_funds: 0,
        platform_fees: 0,
        outside_world: 0,
      } satisfies Record<LedgerAccountKind, number>;
      for (const row of rows) balances[row.kind] = row.balance;
      return balances;
    },

    /** Entries of one account before `until` (settlement: what was earned before the month began). */
    async sumOfAccountBefore(accountId: string, until: Date): Promise<number> {
      const [row] = await db
        .select({
          total: sql<number>`COALESCE(SUM(${ledgerEntries.amountMicros}), 0)`.mapWith(Number),
        })
        .from(ledgerEntries)
        .where(and(eq(ledgerEntries.accountId, accountId), lt(ledgerEntries.createdAt, until)));
      return row?.total ?? 0;
    },

    /** The user's own money (wallet accounts) as it stood just before `until`. */
    async walletSumBefore(userId: string, until: Date): Promise<number> {
      const [row] = await db
        .select({
          total: sql<number>`COALESCE(SUM(${ledgerEntries.amountMicros}), 0)`.mapWith(Number),
        })
        .from(ledgerEntries)
        .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
        .where(
          and(
            eq(ledgerAccounts.userId, userId),
            inArray(ledgerAccounts.kind, [...WALLET_ACCOUNT_KINDS]),
            lt(ledgerEntries.createdAt, until),
          ),
        );
      return row?.total ?? 0;
    },

    /** A page of the user's history, newest first, and how many rows the filter has in all. */
    async historyPage(
      filter: HistoryFilter,
      page: { limit: number; offset: number },
    ): Promise<{ rows: HistoryRow[]; total: number }> {
      const rows = history(filter);
      const [list, [counted]] = await Promise.all([
        db
          .select()
          .from(rows)
          .orderBy(desc(rows.createdAt), desc(rows.id))
          .limit(page.limit)
          .offset(page.offset),
        db.select({ total: sql<number>`COUNT(*)`.mapWith(Number) }).from(rows),
      ]);
      return { rows: list, total: counted?.total ?? 0 };
    },

    /** Net of the user's history rows of these kinds since `from` (e.g. this month's charges). */
    async netOfKinds(userId: string, kinds: LedgerTransactionKind[], from?: Date): Promise<number> {
      const rows = history({ userId, from });
      const [row] = await db
        .select({ total: sql<number>`COALESCE(SUM(${rows.amountMicros}), 0)`.mapWith(Number) })
        .from(rows)
        .where(inArray(rows.kind, kinds));
      return row?.total ?? 0;
    },

    /** Net per UTC day of the user's history rows of these kinds since `from`. */
    async netByDay(
      userId: string,
      kinds: LedgerTransactionKind[],
      from: Date,
    ): Promise<{ date: string; amountMicros: number }[]> {
      const rows = history({ userId, from });
      const day = sql<string>`to_char(${rows.createdAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;
      return db
        .select({
          date: day,
          amountMicros: sql<number>`SUM(${rows.amountMicros})`.mapWith(Number),
        })
        .from(rows)
        .where(inArray(rows.kind, kinds))
        .groupBy(day)
        .orderBy(asc(day));
    },

    /**
     * Everything that must hold in a correct ledger: all entries sum to zero, every transaction
     * sums to zero, every account's balance equals the sum of its entries, and no account other
     * than the outside world is below zero. Empty when all is well.
     */
    async audit(): Promise<LedgerProblem[]> {
      const problems: LedgerProblem[] = [];
      const [total] = await db
        .select({
          sum: sql<number>`COALESCE(SUM(${ledgerEntries.amountMicros}), 0)`.mapWith(Number),
        })
        .from(ledgerEntries);
      if ((total?.sum ?? 0) !== 0) {
        problems.push({ what: 'entries do not sum to zero', detail: String(total?.sum) });
      }
      const unbalanced = await db
        .select({ id: ledgerEntries.transactionId })
        .from(ledgerEntries)
        .groupBy(ledgerEntries.transactionId)
        .having(sql`SUM(${ledgerEntries.amountMicros}) <> 0`);
      for (const row of unbalanced) {
        problems.push({ what: 'transaction does not balance', detail: row.id });
      }
      const drifted = await db
        .select({ id: ledgerAccounts.id, balance: ledgerAccounts.balanceMicros })
        .from(ledgerAccounts)
        .leftJoin(ledgerEntries, eq(ledgerEntries.accountId, ledgerAccounts.id))
        .groupBy(ledgerAccounts.id)
        .having(
          sql`${ledgerAccounts.balanceMicros} <> COALESCE(SUM(${ledgerEntries.amountMicros}), 0)`,
        );
      for (const row of drifted) {
        problems.push({ what: 'balance differs from its entries', detail: row.id });
      }
      const negative = await db
        .select({ id: ledgerAccounts.id })
        .from(ledgerAccounts)
        .where(
          sql`${ledgerAccounts.kind} <> 'outside_world' AND ${ledgerAccounts.balanceMicros} < 0`,
        );
      for (const row of negative) problems.push({ what: 'account below zero', detail: row.id });
      return problems;
    },
  };
}

export type LedgerRepository = ReturnType<typeof createLedgerRepository>;
