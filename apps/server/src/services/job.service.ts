import {
  ACTIVE_JOB_STATUSES,
  DEFAULT_MAX_ATTEMPTS,
  ERROR_CODES,
  JOB_STATUSES,
  NO_NODE_SUPPORTS_TYPE,
  RUNNABLE_JOB_TYPES,
  JOB_HOLD_MICROS,
  type Job,
  type JobListResponse,
  type JobStatus,
  type JobType,
  type jobListQuerySchema,
  type submitJobRequestSchema,
} from '@fabric/contract';
import { isDeepStrictEqual } from 'node:util';
import type { z } from 'zod';
import type { JobRow } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import { badRequest, conflict, notFound } from '../lib/http-errors.ts';
import { idempotencyConflict } from '../lib/idempotency-key.ts';
import type { Repositories } from '../repositories/index.ts';
import { meteredCharge, placeJobHold, settleJob, type JobCharge } from './billing.ts';
import type { JobWakeups } from './job-wakeups.service.ts';
import { toJobResponse } from './job-view.ts';

export type SubmitJobInput = z.output<typeof submitJobRequestSchema>;
export type JobListInput = z.output<typeof jobListQuerySchema>;

export const JOB_NOT_FOUND_MESSAGE = 'Job not found';
export const DEFAULT_PAGE_SIZE = 20;

/** `all` (or no status) lists every job; `running` means queued or running, as the Running tab does. */
const STATUS_FILTERS: Record<string, readonly JobStatus[] | undefined> = {
  all: undefined,
  running: ACTIVE_JOB_STATUSES as readonly JobStatus[],
  ...Object.fromEntries(
    JOB_STATUSES.filter((status) => status !== 'running').map((status) => [status, [status]]),
  ),
};

function statusFilterOf(status: string | undefined): readonly JobStatus[] | undefined {
  if (status === undefined || status === '') return undefined;
  // An own-property test: `in` would take __proto__, constructor or toString for filters.
  if (!Object.hasOwn(STATUS_FILTERS, status)) {
    throw badRequest(
      `status must be one of ${Object.keys(STATUS_FILTERS).join(', ')}`,
      ERROR_CODES.validation,
      'status',
    );
  }
  return STATUS_FILTERS[status];
}

function isRunnable(jobType: JobType): boolean {
  return (RUNNABLE_JOB_TYPES as readonly JobType[]).includes(jobType);
}

/** An enterprise's calls on its jobs. Another enterprise's job is not found. */
export function createJobService(options: {
  repositories: Repositories;
  clock: Clock;
  wakeups: JobWakeups;
  /** QUEUE_TIMEOUT_HOURS, to tell owners until when a queued job waits. */
  queueTimeoutHours: number;
}) {
  const { repositories, clock, wakeups, queueTimeoutHours } = options;
  const toResponse = (job: JobRow) => toJobResponse(job, queueTimeoutHours);

  return {
    /**
     * Queues the job and holds its price on the owner's credits (402 when they fall short). With
     * an idempotency key, a retry returns the job of the first submit (one job, one hold) and the
     * key with another job is refused.
     */
    async submit(
      ownerId: string,
      input: SubmitJobInput,
      idempotencyKey: string | null = null,
    ): Promise<Job> {
      const sameJob = (earlier: JobRow) =>
        earlier.jobType === input.job_type &&
        earlier.priority === input.priority &&
        isDeepStrictEqual(earlier.params, input.params);
      if (idempotencyKey) {
        const earlier = await repositories.jobs.findByIdempotencyKey(ownerId, idempotencyKey);
        if (earlier) {
          if (!sameJob(earlier)) throw idempotencyConflict('a different job');
          return toResponse(earlier);
        }
      }
      const now = clock();
      const runnable = isRunnable(input.job_type);
      const job = await repositories.transaction(async (transaction) => {
        const row = {
          ownerId,
          jobType: input.job_type,
          params: input.params,
          priority: input.priority,
          maxAttempts: DEFAULT_MAX_ATTEMPTS,
          // No kernel exists for the AI types yet: they wait, saying why.
          queueReason: runnable ? null : NO_NODE_SUPPORTS_TYPE,
          // The hold is the estimate the submit page shows: the most the job can cost.
          estimatedCostMicros: JOB_HOLD_MICROS,
          createdAt: now,
          updatedAt: now,
        };
        const inserted = idempotencyKey
          ? await transaction.jobs.insertOnce({ ...row, idempotencyKey })
          : await transaction.jobs.insert(row);
        if (inserted) await placeJobHold(transaction, inserted, now);
        return inserted;
      });
      if (!job && idempotencyKey) {
        // A concurrent submit with the same key inserted first: this is a retry of it.
        const earlier = await repositories.jobs.findByIdempotencyKey(ownerId, idempotencyKey);
        if (earlier && sameJob(earlier)) return toResponse(earlier);
        throw idempotencyConflict('a different job');
      }
      if (!job) throw new Error('The job was not recorded');
      if (runnable) wakeups.announce();
      return toResponse(job);
    },

    async list(ownerId: string, query: JobListInput): Promise<JobListResponse> {
      const statuses = statusFilterOf(query.status);
      const page = query.page ?? 1;
      const pageSize = query.page_size ?? DEFAULT_PAGE_SIZE;
      const [rows, countRows] = await Promise.all([
        repositories.jobs.listOfOwner({
          ownerId,
          statuses,
          limit: pageSize,
          offset: (page - 1) * pageSize,
        }),
        repositories.jobs.countByStatusOfOwner(ownerId),
      ]);
      const counts: Record<string, number> = Object.fromEntries(
        JOB_STATUSES.map((status) => [status, 0]),
      );
      for (const row of countRows) counts[row.status] = row.total;
      const total = (statuses ?? JOB_STATUSES).reduce(
        (sum, status) => sum + (counts[status] ?? 0),
        0,
      );
      return { jobs: rows.map(toResponse), total, page, page_size: pageSize, counts };
    },

    async get(ownerId: string, jobId: string): Promise<Job> {
      const job = await repositories.jobs.findById(jobId);
      if (!job || job.ownerId !== ownerId) throw notFound(JOB_NOT_FOUND_MESSAGE);
      return toResponse(job);
    },

    /**
     * A queued job is cancelled at once. A running one too: its attempt ends, and the node learns
     * it must stop from its next heartbeat (abort_job_ids) or progress report (abort: true).
     */
    async cancel(ownerId: string, jobId: string): Promise<Job> {
      const job = await repositories.transaction(async (transaction) => {
        const locked = await transaction.jobs.lockById(jobId);
        if (!locked || locked.ownerId !== ownerId) throw notFound(JOB_NOT_FOUND_MESSAGE);
        if (locked.status !== 'queued' && locked.status !== 'running') {
          throw conflict(`This job is already ${locked.status} and cannot be cancelled`);
        }
        const now = clock();
        let charge: JobCharge = null;
        if (locked.status === 'running' && locked.currentLeaseId) {
          const attempt = await transaction.jobAttempts.findByLeaseId(locked.currentLeaseId);
          await transaction.jobAttempts.end(locked.currentLeaseId, {
            endedAt: now,
            outcome: 'cancelled',
            error: 'Cancelled by its owner',
          });
          // Billed up to the cancellation: the attempt's time so far, on one core, and never
          // more than the whole job's work.
          if (attempt)
            charge = await meteredCharge(transaction, locked, attempt, now, 'time_spent');
        }
        // A result that passed verification and waits for its replica was work done: the owner
        // pays for that run (without the completion fee), as for a run cancelled midway.
        const [candidateLeaseId] = locked.candidateLeaseIds;
        const candidate = candidateLeaseId
          ? await transaction.jobAttempts.findByLeaseId(candidateLeaseId)
          : undefined;
        if (candidate) {
          charge = {
            ...(await meteredCharge(
              transaction,
              locked,
              candidate,
              candidate.endedAt ?? now,
              'verified_result',
            )),
            includesJobFee: false,
          };
        }
        const cancelled = await transaction.jobs.update(locked.id, {
          status: 'cancelled',
          candidateLeaseIds: [],
          replicationDeadlineAt: null,
          error: 'Cancelled by its owner',
          queueReason: null,
          currentLeaseId: null,
          leaseExpiresAt: null,
          runDeadlineAt: null,
          finishedAt: now,
          updatedAt: now,
        });
        await settleJob(transaction, cancelled, charge, now);
        return (await transaction.jobs.findById(locked.id)) ?? cancelled;
      });
      return toResponse(job);
    },
  };
}

export type JobService = ReturnType<typeof createJobService>;
