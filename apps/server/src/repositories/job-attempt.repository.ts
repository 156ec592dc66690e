import { and, asc, desc, eq, gte, isNull, ne, sql } from 'drizzle-orm';
import type { JobType } from '@fabric/contract';
import type { Database } from '../db/connection.ts';
import {
  jobAttempts,
  jobs,
  ledgerAccounts,
  ledgerEntries,
  ledgerTransactions,
  nodes,
  type JobAttemptRow,
} from '../db/schema.ts';

export type NewJobAttempt = Pick<
  JobAttemptRow,
  'leaseId' | 'jobId' | 'nodeId' | 'attemptNumber' | 'challengeSeed' | 'startedAt'
>;

export type AttemptEnding = Pick<JobAttemptRow, 'endedAt' | 'outcome' | 'error'> &
  Partial<Pick<JobAttemptRow, 'usageWallMs' | 'usageCpuMs' | 'usagePeakMemoryBytes'>>;

export interface NodeAttemptRow extends JobAttemptRow {
  jobType: JobType;
  /** What the node's owner earned for the attempt (their share of its charge). */
  earnedMicros: number;
}

export function createJobAttemptRepository(db: Database) {
  return {
    async insert(attempt: NewJobAttempt): Promise<void> {
      await db.insert(jobAttempts).values(attempt);
    },

    async findByLeaseId(leaseId: string): Promise<JobAttemptRow | undefined> {
      const [row] = await db
        .select()
        .from(jobAttempts)
        .where(eq(jobAttempts.leaseId, leaseId))
        .limit(1);
      return row;
    },

    /** Whether the node ever held a lease on the job. */
    async existsForNodeAndJob(nodeId: string, jobId: string): Promise<boolean> {
      const [row] = await db
        .select({ leaseId: jobAttempts.leaseId })
        .from(jobAttempts)
        .where(and(eq(jobAttempts.jobId, jobId), eq(jobAttempts.nodeId, nodeId)))
        .limit(1);
      return row !== undefined;
    },

    /**
     * Stores what the node committed to and the challenge drawn for it, once: false when the
     * attempt already holds a commitment (a node may not commit again after seeing a challenge).
     */
    async commit(
      leaseId: string,
      commit: Pick<JobAttemptRow, 'committedAt' | 'committedResult' | 'commitment' | 'challenge'> &
        Pick<JobAttemptRow, 'usageWallMs' | 'usageCpuMs' | 'usagePeakMemoryBytes'>,
    ): Promise<boolean> {
      const updated = await db
        .update(jobAttempts)
        .set(commit)
        .where(and(eq(jobAttempts.leaseId, leaseId), isNull(jobAttempts.committedAt)))
        .returning({ leaseId: jobAttempts.leaseId });
      return updated.length === 1;
    },

    async end(leaseId: string, ending: AttemptEnding): Promise<void> {
      await db.update(jobAttempts).set(ending).where(eq(jobAttempts.leaseId, leaseId));
    },

    /** The node's most recent attempts, newest first (job_attempts_node_id_index). */
    async listRecentOfNode(nodeId: string, limit: number): Promise<NodeAttemptRow[]> {
      const rows = await db
        .select({
          attempt: jobAttempts,
          jobType: jobs.jobType,
          // The owner's share of the job's charges posted for this node: a node is paid once per
          // job, for its attempt whose result counted (completed), or for the run a cancellation
          // or a confirmed failure billed (the job's other outcomes are unpaid).
          earnedMicros: sql<number>`(
            SELECT COALESCE(SUM(${ledgerEntries.amountMicros}), 0)
            FROM ${ledgerEntries}
            JOIN ${ledgerTransactions} ON ${ledgerTransactions.id} = ${ledgerEntries.transactionId}
            JOIN ${ledgerAccounts} ON ${ledgerAccounts.id} = ${ledgerEntries.accountId}
            WHERE ${ledgerTransactions.jobId} = ${jobAttempts.jobId}
              AND ${ledgerTransactions.nodeId} = ${jobAttempts.nodeId}
              AND (${ledgerTransactions.createdAt} = ${jobAttempts.endedAt}
                   OR ${jobAttempts.outcome} = 'completed')
              AND ${ledgerTransactions.kind} = 'job_charge'
              AND ${ledgerAccounts.kind} = 'provider_pending'
          )`.mapWith(Number),
        })
        .from(jobAttempts)
        .innerJoin(jobs, eq(jobs.id, jobAttempts.jobId))
        .where(eq(jobAttempts.nodeId, nodeId))
        .orderBy(desc(jobAttempts.startedAt), desc(jobAttempts.attemptNumber))
        .limit(limit);
      return rows.map((row) => ({
        ...row.attempt,
        jobType: row.jobType,
        earnedMicros: row.earnedMicros,
      }));
    },

    /**
     * Whether a node of another provider than `ownerId` already ended an attempt of the job with
     * this very failure: a device's "this job cannot run" is believed only when it repeats there.
     */
    async hasSameFailureElsewhere(jobId: string, error: string, ownerId: string): Promise<boolean> {
      const [row] = await db
        .select({ leaseId: jobAttempts.leaseId })
        .from(jobAttempts)
        .innerJoin(nodes, eq(nodes.id, jobAttempts.nodeId))
        .where(
          and(
            eq(jobAttempts.jobId, jobId),
            eq(jobAttempts.outcome, 'failed'),
            eq(jobAttempts.error, error),
            ne(nodes.ownerId, ownerId),
          ),
        )
        .limit(1);
      return row !== undefined;
    },

    /** Leases the owner's nodes took since `since` (job_attempts_node_id_index per node). */
    async countLeasesOfOwnerSince(ownerId: string, since: Date): Promise<number> {
      const [row] = await db
        .select({ total: sql<number>`count(*)`.mapWith(Number) })
        .from(jobAttempts)
        .innerJoin(nodes, eq(nodes.id, jobAttempts.nodeId))
        .where(and(eq(nodes.ownerId, ownerId), gte(jobAttempts.startedAt, since)));
      return row?.total ?? 0;
    },

    async listOfJob(jobId: string): Promise<JobAttemptRow[]> {
      return db
        .select()
        .from(jobAttempts)
        .where(eq(jobAttempts.jobId, jobId))
        .orderBy(asc(jobAttempts.startedAt), asc(jobAttempts.attemptNumber));
    },
  };
}

export type JobAttemptRepository = ReturnType<typeof createJobAttemptRepository>;
