import type { LedgerAccountKind, LedgerAccountRow, LedgerTransactionKind } from '../db/schema.ts';
import type { Repositories } from '../repositories/index.ts';

// Posting to the double-entry ledger. Every movement of money goes through postLedgerTransaction,
// inside the database transaction of whatever caused it (a submit, a job's end, a payout), so the
// money moves exactly when the thing happens, or not at all.

/** One side of a movement: the account (by kind and owner) and the signed amount. */
export interface Leg {
  kind: LedgerAccountKind;
  /** Null for the platform's own accounts. */
  userId: string | null;
  amountMicros: number;
}

export interface Posting {
  kind: LedgerTransactionKind;
  description: string;
  jobId?: string | null;
  nodeId?: string | null;
  /** The movement happens once per key, ever; posting again returns the first one. */
  idempotencyKey?: string | null;
  createdAt: Date;
  legs: Leg[];
}

export interface PostingResult {
  transactionId: string;
  /** False when the idempotency key had been posted before (nothing moved this time). */
  isNew: boolean;
  /**
   * The balance of each account of the posting right after it, read under the account locks, by
   * `${kind}:${userId}` (empty for a repeated key).
   */
  balancesAfter: Map<string, number>;
}

/** An account other than the outside world would go below zero. Nothing was posted. */
export class InsufficientFundsError extends Error {
  override readonly name = 'InsufficientFundsError';
  constructor(
    readonly kind: LedgerAccountKind,
    readonly userId: string | null,
    /** What the account holds now. */
    readonly availableMicros: number,
    readonly neededMicros: number,
  ) {
    super(`${kind} of ${userId ?? 'the platform'} holds ${availableMicros}, needs ${neededMicros}`);
  }
}

export function accountKey(leg: Pick<Leg, 'kind' | 'userId'>): string {
  return `${leg.kind}:${leg.userId ?? ''}`;
}

/**
 * Posts one balanced movement: the legs (same accounts merged, zeros dropped) must sum to zero.
 * Locks the accounts involved, refuses with InsufficientFundsError when one would go below zero,
 * then writes the transaction, its entries and the new balances. Returns null when every leg is
 * zero (nothing to move).
 */
export async function postLedgerTransaction(
  repositories: Repositories,
  posting: Posting,
): Promise<PostingResult | null> {
  if (posting.idempotencyKey) {
    const existing = await repositories.ledger.findTransactionByKey(posting.idempotencyKey);
    if (existing) return { transactionId: existing.id, isNew: false, balancesAfter: new Map() };
  }
  const merged = new Map<string, Leg>();
  for (const leg of posting.legs) {
    if (!Number.isSafeInteger(leg.amountMicros)) {
      throw new Error(`Ledger amounts are whole micro-dollars, got ${leg.amountMicros}`);
    }
    const key = accountKey(leg);
    const previous = merged.get(key);
    merged.set(key, { ...leg, amountMicros: (previous?.amountMicros ?? 0) + leg.amountMicros });
  }
  const legs = [...merged.values()].filter((leg) => leg.amountMicros !== 0);
  const sum = legs.reduce((total, leg) => total + leg.amountMicros, 0);
  if (sum !== 0) throw new Error(`Unbalanced ledger posting (${posting.kind}): sums to ${sum}`);
  if (legs.length === 0) return null;

  // One after another: a transaction is one connection, which runs one query at a time (pg
  // deprecates queuing a query while another runs).
  const accounts: LedgerAccountRow[] = [];
  for (const leg of legs) {
    accounts.push(await repositories.ledger.ensureAccount(leg.kind, leg.userId));
  }
  const locked = new Map(
    (await repositories.ledger.lockAccounts(accounts.map((account) => account.id))).map(
      (account) => [account.id, account],
    ),
  );
  const balancesAfter = new Map<string, number>();
  const entries = legs.map((leg, index) => {
    const account = locked.get(accounts[index]?.id ?? '');
    if (!account) throw new Error(`Ledger account ${accountKey(leg)} vanished`);
    if (account.kind !== 'outside_world' && account.balanceMicros + leg.amountMicros < 0) {
      throw new InsufficientFundsError(
        account.kind,
        account.userId,
        account.balanceMicros,
        -leg.amountMicros,
      );
    }
    balancesAfter.set(accountKey(leg), account.balanceMicros + leg.amountMicros);
    return { accountId: account.id, amountMicros: leg.amountMicros };
  });

  const transaction = await repositories.ledger.insertTransaction({
    kind: posting.kind,
    description: posting.description,
    jobId: posting.jobId ?? null,
    nodeId: posting.nodeId ?? null,
    idempotencyKey: posting.idempotencyKey ?? null,
    createdAt: posting.createdAt,
  });
  await repositories.ledger.insertEntries(transaction.id, posting.createdAt, entries);
  for (const entry of entries) {
    await repositories.ledger.addToBalance(entry.accountId, entry.amountMicros);
  }
  return { transactionId: transaction.id, isNew: true, balancesAfter };
}
