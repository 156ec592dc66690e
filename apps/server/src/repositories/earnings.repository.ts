import { and, desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/connection.ts';
import { ledgerAccounts, ledgerEntries, ledgerTransactions } from '../db/schema.ts';

export interface NodeEarnings {
  totalMicros: number;
  byDay: { date: string; amountMicros: number }[];
  byJob: { jobId: string; amountMicros: number; finishedAt: Date }[];
}

export function createEarningsRepository(db: Database) {
  /**
   * One row per job the node was paid for, with what its owner earned: their share of the job's
   * charge in the ledger (a completed job, or the usage up to a cancellation).
   */
  function earningsPerJob(nodeId: string) {
    return db
      .select({
        jobId: sql<string>`${ledgerTransactions.jobId}`.as('job_id'),
        finishedAt: sql<Date>`${ledgerTransactions.createdAt}`
          .mapWith(ledgerTransactions.createdAt)
          .as('finished_at'),
        earnedMicros: sql<number>`${ledgerEntries.amountMicros}`
          .mapWith(Number)
          .as('earned_micros'),
      })
      .from(ledgerEntries)
      .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
      .where(
        and(
          eq(ledgerTransactions.nodeId, nodeId),
          eq(ledgerTransactions.kind, 'job_charge'),
          eq(ledgerAccounts.kind, 'provider_pending'),
        ),
      )
      .as('earnings_per_job');
  }

  return {
    async ofNode(nodeId: string): Promise<NodeEarnings> {
      const perJob = earningsPerJob(nodeId);
      const byJob = await db
        .select({
          jobId: perJob.jobId,
          amountMicros: perJob.earnedMicros,
          finishedAt: perJob.finishedAt,
        })
        .from(perJob)
        .orderBy(desc(perJob.finishedAt), desc(perJob.jobId));
      const day = sql<string>`to_char(${perJob.finishedAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;
      const byDay = await db
        .select({
          date: day,
          amountMicros: sql<number>`COALESCE(SUM(${perJob.earnedMicros}), 0)`.mapWith(Number),
        })
        .from(perJob)
        .groupBy(day)
        .orderBy(desc(day));
      return {
        totalMicros: byDay.reduce((sum, entry) => sum + entry.amountMicros, 0),
        byDay,
        byJob,
      };
    },
  };
}

export type EarningsRepository = ReturnType<typeof createEarningsRepository>;
