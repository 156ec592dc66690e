import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../db/connection.ts';
import { jobAttempts, type JobAttemptRow } from '../db/schema.ts';

export type NewJobAttempt = Pick<
  JobAttemptRow,
  'leaseId' | 'jobId' | 'nodeId' | 'attemptNumber' | 'challengeSeed' | 'startedAt'
>;

export type AttemptEnding = Pick<JobAttemptRow, 'endedAt' | 'outcome' | 'error'> &
  Partial<Pick<JobAttemptRow, 'usageWallMs' | 'usageCpuMs' | 'usagePeakMemoryBytes'>>;

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

    async end(leaseId: string, ending: AttemptEnding): Promise<void> {
      await db.update(jobAttempts).set(ending).where(eq(jobAttempts.leaseId, leaseId));
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
