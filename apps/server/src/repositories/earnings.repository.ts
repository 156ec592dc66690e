import { and, desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/connection.ts';
import { jobs } from '../db/schema.ts';

export interface NodeEarnings {
  totalMicros: number;
  byDay: { date: string; amountMicros: number }[];
  byJob: { jobId: string; amountMicros: number; finishedAt: Date }[];
}

export function createEarningsRepository(db: Database) {
  /**
   * One row per job the node completed, with what the node earned for it. There is no money
   * ledger yet, so the amount is 0 for every job: the billing issue replaces `earnedMicros` with
   * the sum of the node's ledger entries for the job, and every total below follows.
   */
  function earningsPerJob(nodeId: string) {
    return db
      .select({
        jobId: jobs.id,
        finishedAt: jobs.finishedAt,
        earnedMicros: sql<number>`0::bigint`.mapWith(Number).as('earned_micros'),
      })
      .from(jobs)
      .where(and(eq(jobs.assignedNodeId, nodeId), eq(jobs.status, 'completed')))
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
        byJob: byJob.flatMap((entry) =>
          entry.finishedAt ? [{ ...entry, finishedAt: entry.finishedAt }] : [],
        ),
      };
    },
  };
}

export type EarningsRepository = ReturnType<typeof createEarningsRepository>;
