import { and, asc, count, desc, eq, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { JobStatus, JobType } from '@fabric/contract';
import type { Database } from '../db/connection.ts';
import { jobs, type JobRow } from '../db/schema.ts';
import { sharesPaymentFingerprint } from './linked-account.repository.ts';

export type NewJob = Pick<
  JobRow,
  | 'ownerId'
  | 'jobType'
  | 'params'
  | 'priority'
  | 'maxAttempts'
  | 'queueReason'
  | 'estimatedCostMicros'
  | 'createdAt'
  | 'updatedAt'
>;

export type JobChanges = Partial<Omit<JobRow, 'id' | 'sequence' | 'ownerId' | 'createdAt'>>;

export interface JobPage {
  ownerId: string;
  /** Undefined: every status. */
  statuses: readonly JobStatus[] | undefined;
  limit: number;
  offset: number;
}

function ofOwner(ownerId: string, statuses: readonly JobStatus[] | undefined): SQL | undefined {
  return statuses
    ? and(eq(jobs.ownerId, ownerId), inArray(jobs.status, [...statuses]))
    : eq(jobs.ownerId, ownerId);
}

/** A lease extension to `until`, but never past the lease's run deadline. */
function notPastRunDeadline(until: Date) {
  return sql`LEAST(${until.toISOString()}::timestamptz, COALESCE(${jobs.runDeadlineAt}, ${until.toISOString()}::timestamptz))`;
}

export function createJobRepository(db: Database) {
  return {
    async insert(job: NewJob): Promise<JobRow> {
      const [row] = await db.insert(jobs).values(job).returning();
      if (!row) throw new Error('Inserting a job returned no row');
      return row;
    },

    /**
     * Inserts the job unless its owner already has one with the same idempotency key (undefined
     * then; a concurrent insert with the key waits for the other transaction to end first).
     */
    async insertOnce(job: NewJob & { idempotencyKey: string }): Promise<JobRow | undefined> {
      const [row] = await db.insert(jobs).values(job).onConflictDoNothing().returning();
      return row;
    },

    async findByIdempotencyKey(ownerId: string, key: string): Promise<JobRow | undefined> {
      const [row] = await db
        .select()
        .from(jobs)
        .where(and(eq(jobs.ownerId, ownerId), eq(jobs.idempotencyKey, key)))
        .limit(1);
      return row;
    },

    async findById(id: string): Promise<JobRow | undefined> {
      const [row] = await db.select().from(jobs).where(eq(jobs.id, id)).limit(1);
      return row;
    },

    /** Newest first; served by jobs_owner_created_index / jobs_owner_status_index. */
    async listOfOwner(page: JobPage): Promise<JobRow[]> {
      return db
        .select()
        .from(jobs)
        .where(ofOwner(page.ownerId, page.statuses))
        .orderBy(desc(jobs.createdAt), desc(jobs.sequence))
        .limit(page.limit)
        .offset(page.offset);
    },

    async countOfOwner(
      ownerId: string,
      statuses: readonly JobStatus[] | undefined,
    ): Promise<number> {
      const [row] = await db
        .select({ total: count() })
        .from(jobs)
        .where(ofOwner(ownerId, statuses));
      return row?.total ?? 0;
    },

    async countByStatusOfOwner(ownerId: string): Promise<{ status: JobStatus; total: number }[]> {
      return db
        .select({ status: jobs.status, total: count() })
        .from(jobs)
        .where(eq(jobs.ownerId, ownerId))
        .groupBy(jobs.status);
    },

    /** Locks a job for the rest of the transaction. */
    async lockById(id: string): Promise<JobRow | undefined> {
      const [row] = await db.select().from(jobs).where(eq(jobs.id, id)).for('update');
      return row;
    },

    async update(id: string, changes: JobChanges): Promise<JobRow> {
      const [row] = await db.update(jobs).set(changes).where(eq(jobs.id, id)).returning();
      if (!row) throw new Error(`Job ${id} vanished during an update`);
      return row;
    },

    async findRunningOnNode(nodeId: string): Promise<JobRow | undefined> {
      const [row] = await db
        .select()
        .from(jobs)
        .where(and(eq(jobs.assignedNodeId, nodeId), eq(jobs.status, 'running')))
        .limit(1);
      return row;
    },

    /**
     * The next job for a node, locked: priority 1 before 0, then oldest first, skipping jobs of
     * types the node cannot run, jobs this node (or, while a replica is awaited, this owner) may
     * not take, jobs of an enterprise linked to the node's owner by a payment fingerprint, and
     * rows another transaction holds (SKIP LOCKED: concurrent leases, in any process, each take a
     * different job instead of waiting or colliding).
     */
    async lockNextQueuedForNode(
      node: { id: string; ownerId: string },
      jobTypes: readonly JobType[],
    ): Promise<JobRow | undefined> {
      const [row] = await db
        .select()
        .from(jobs)
        .where(
          and(
            eq(jobs.status, 'queued'),
            inArray(jobs.jobType, [...jobTypes]),
            sql`NOT (${node.id}::uuid = ANY(${jobs.excludedNodeIds}))`,
            sql`NOT (${node.ownerId}::uuid = ANY(${jobs.excludedOwnerIds}))`,
            // Never the jobs of an enterprise that is this provider under another account.
            sql`NOT ${sharesPaymentFingerprint(sql`${node.ownerId}::uuid`, sql`${jobs.ownerId}`)}`,
          ),
        )
        .orderBy(sql`${jobs.priority} DESC NULLS LAST`, asc(jobs.createdAt), asc(jobs.sequence))
        .limit(1)
        .for('update', { skipLocked: true });
      return row;
    },

    /** Running jobs whose lease ran out, locked; rows another sweeper holds are skipped. */
    async lockExpiredLeases(now: Date, limit: number): Promise<JobRow[]> {
      return db
        .select()
        .from(jobs)
        .where(and(eq(jobs.status, 'running'), lte(jobs.leaseExpiresAt, now)))
        .orderBy(asc(jobs.leaseExpiresAt))
        .limit(limit)
        .for('update', { skipLocked: true });
    },

    /**
     * Queued jobs that have waited since before `cutoff`, locked, skipping those another process
     * holds. A queued job's updated_at is when it entered the queue: nothing else updates a
     * waiting job (leasing, cancelling and requeueing all change its status or start a new wait).
     */
    async lockQueuedSince(cutoff: Date, limit: number): Promise<JobRow[]> {
      return db
        .select()
        .from(jobs)
        .where(
          and(
            eq(jobs.status, 'queued'),
            lte(jobs.updatedAt, cutoff),
            // A job holding a verified result ends by its replication deadline instead.
            sql`cardinality(${jobs.candidateLeaseIds}) = 0`,
          ),
        )
        .orderBy(asc(jobs.updatedAt))
        .limit(limit)
        .for('update', { skipLocked: true });
    },

    /** Queued jobs whose wait for a replica is over, locked; rows another sweeper holds are skipped. */
    async lockReplicationDue(now: Date, limit: number): Promise<JobRow[]> {
      return db
        .select()
        .from(jobs)
        .where(
          and(
            eq(jobs.status, 'queued'),
            sql`cardinality(${jobs.candidateLeaseIds}) > 0`,
            lte(jobs.replicationDeadlineAt, now),
          ),
        )
        .orderBy(asc(jobs.replicationDeadlineAt))
        .limit(limit)
        .for('update', { skipLocked: true });
    },

    /** Progress of the current lease; false when the lease is no longer the job's current one. */
    async recordProgress(
      id: string,
      leaseId: string,
      progress: { progress: number; message: string | null; leaseExpiresAt: Date; now: Date },
    ): Promise<boolean> {
      const rows = await db
        .update(jobs)
        .set({
          progress: progress.progress,
          progressMessage: progress.message,
          leaseExpiresAt: notPastRunDeadline(progress.leaseExpiresAt),
          updatedAt: progress.now,
        })
        .where(and(eq(jobs.id, id), eq(jobs.status, 'running'), eq(jobs.currentLeaseId, leaseId)))
        .returning({ id: jobs.id });
      return rows.length > 0;
    },

    /** Heartbeats keep the node's lease alive. */
    async extendLeaseOfNode(nodeId: string, leaseExpiresAt: Date): Promise<void> {
      await db
        .update(jobs)
        .set({ leaseExpiresAt: notPastRunDeadline(leaseExpiresAt) })
        .where(and(eq(jobs.assignedNodeId, nodeId), eq(jobs.status, 'running')));
    },

    /** Of `ids`, the jobs running on the node (the others the agent must abort). */
    async filterRunningOnNode(nodeId: string, ids: readonly string[]): Promise<string[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .select({ id: jobs.id })
        .from(jobs)
        .where(
          and(
            inArray(jobs.id, [...ids]),
            eq(jobs.assignedNodeId, nodeId),
            eq(jobs.status, 'running'),
          ),
        );
      return rows.map((row) => row.id);
    },
  };
}

export type JobRepository = ReturnType<typeof createJobRepository>;
