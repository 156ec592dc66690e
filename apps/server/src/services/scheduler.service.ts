import { randomInt, randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import {
  ERROR_CODES,
  HEARTBEAT_INTERVAL_SECONDS,
  jobCostModel,
  jobProofSchemas,
  jobResultSchemas,
  LEASE_TIMEOUT_SECONDS,
  RUNNABLE_JOB_TYPES,
  type CommitJobRequest,
  type CommitJobResponse,
  type CompleteJobRequest,
  type CompleteJobResponse,
  type FailJobRequest,
  type JobType,
  type Lease,
  type ProgressRequest,
  type ProgressResponse,
} from '@fabric/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { JobAttemptRow, JobRow, NodeRow } from '../db/schema.ts';
import { addSeconds, type Clock } from '../lib/clock.ts';
import { badRequest, HttpError, notFound } from '../lib/http-errors.ts';
import { loggableError } from '../lib/loggable-error.ts';
import type { Repositories } from '../repositories/index.ts';
import { invalidDeviceToken } from './device.service.ts';
import { notify } from './notify.ts';
import {
  endUnsuccessfulAttempt,
  failQueuedJobUnpicked,
  type UnsuccessfulAttempt,
} from './job-lifecycle.ts';
import type { JobWakeups } from './job-wakeups.service.ts';
import { toLease } from './job-view.ts';
import {
  acceptVerifiedAttempt,
  endReplicationWait,
  recordRefusal,
  type ReplicationPolicy,
} from './replication.ts';

/**
 * verifyCommittedResult of @fabric/compute: checks a committed result against the job's params,
 * the lease's challenge seed, and the opening of the challenge drawn after the commitment.
 */
export type ResultVerifier = (
  jobType: JobType,
  params: Record<string, unknown>,
  result: Record<string, unknown>,
  challengeSeed: number,
  proof: { commitment: unknown; challenge: unknown; opening: unknown },
) => { ok: true } | { ok: false; reason: string };

/** drawChallenge of @fabric/compute: the random challenge for a stored commitment. */
export type ChallengeDrawer = (
  jobType: JobType,
  params: Record<string, unknown>,
  randomInt: (max: number) => number,
) => Record<string, unknown>;

export const LEASE_NOT_VALID_MESSAGE = 'This lease is no longer valid';
export const LEASE_NOT_FOUND_MESSAGE = 'This node has never been leased this job';
export const ALREADY_COMMITTED_MESSAGE =
  'This attempt has already committed to a different result; a commitment cannot change after its challenge';
export const NOT_COMMITTED_MESSAGE =
  'Commit the result first: complete opens the challenge of a commit';
export const NODE_STOPPED_RESPONDING = 'node stopped responding';

const heartbeatTime = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZone: 'UTC',
});

/** The sweeper's period; lease requests also sweep, at most once per this many milliseconds. */
export const SWEEP_INTERVAL_MILLISECONDS = HEARTBEAT_INTERVAL_SECONDS * 1000;
const SWEEP_AT_MOST_EVERY_MILLISECONDS = 1000;
const SWEEP_BATCH = 100;
/** A waiting lease looks at the queue again this often even without a wake-up (a lost NOTIFY). */
const WAIT_RECHECK_MILLISECONDS = 5000;
/** Challenge seeds are random non-negative 31-bit integers. */
const CHALLENGE_SEED_LIMIT = 2 ** 31;

/** Why a lease was taken back from a node that kept it past the job's maximum runtime. */
export function ranPastMaximumRuntime(maxRuntimeMs: number): string {
  const minutes = Math.ceil(maxRuntimeMs / 60_000);
  return `the node ran past its maximum runtime of ${minutes.toString()} ${minutes === 1 ? 'minute' : 'minutes'}`;
}

function leaseNotValid(): HttpError {
  return new HttpError(409, LEASE_NOT_VALID_MESSAGE, ERROR_CODES.leaseNotValid);
}

const reportedSchemas = {
  result: (jobType: JobType) => (jobResultSchemas as Partial<Record<JobType, z.ZodType>>)[jobType],
  commitment: (jobType: JobType) =>
    (jobProofSchemas as Partial<Record<JobType, { commitment: z.ZodType }>>)[jobType]?.commitment,
  opening: (jobType: JobType) =>
    (jobProofSchemas as Partial<Record<JobType, { opening: z.ZodType }>>)[jobType]?.opening,
};

/** A reported part checked against the job type's shape: 400 naming the field when it does not fit. */
function parseReported(
  jobType: JobType,
  part: keyof typeof reportedSchemas,
  value: Record<string, unknown>,
): Record<string, unknown> {
  const schema = reportedSchemas[part](jobType);
  if (!schema) throw leaseNotValid();
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data as Record<string, unknown>;
  const issue = parsed.error.issues[0];
  const path = [part, ...(issue?.path.map(String) ?? [])].join('.');
  throw badRequest(
    `${path} does not fit a ${jobType} ${part}: ${issue?.message ?? 'invalid'}`,
    ERROR_CODES.validation,
    path,
  );
}

function runnableTypesOf(node: NodeRow): JobType[] {
  return node.supportedJobTypes.filter((type) =>
    (RUNNABLE_JOB_TYPES as readonly JobType[]).includes(type),
  );
}

/**
 * Hands jobs to nodes and takes back what they report. Every decision is a database transaction
 * with row locks, so any number of server processes on one PostgreSQL agree: a job is leased to
 * one node at a time, a node runs one job at a time, and only the current lease may report.
 */
export function createSchedulerService(options: {
  repositories: Repositories;
  clock: Clock;
  wakeups: JobWakeups;
  verifyResult: ResultVerifier;
  drawChallenge: ChallengeDrawer;
  logger: FastifyBaseLogger;
  /** A job waiting in the queue this long fails free of charge (QUEUE_TIMEOUT_HOURS). */
  queueTimeoutHours: number;
  /** Leases all of one provider's nodes may take per minute (PROVIDER_LEASES_PER_MINUTE). */
  providerLeasesPerMinute: number;
  replication: Omit<ReplicationPolicy, 'queueTimeoutHours'>;
}) {
  const { repositories, clock, wakeups, verifyResult, drawChallenge, logger, queueTimeoutHours } =
    options;
  const { providerLeasesPerMinute } = options;
  const replication: ReplicationPolicy = { ...options.replication, queueTimeoutHours };
  let lastSweepAt = Number.NEGATIVE_INFINITY;

  /** One try: the node's current job if it holds one, else the next queued job it may run. */
  function leaseOnce(nodeId: string): Promise<Lease | null> {
    return repositories.transaction(async (transaction) => {
      const node = await transaction.nodes.lockEnrolled(nodeId);
      if (!node) throw invalidDeviceToken();
      const now = clock();
      const expiresAt = addSeconds(now, LEASE_TIMEOUT_SECONDS);
      // Asking for work proves the node is alive.
      await transaction.nodes.recordHeartbeat(node.id, now, undefined);

      const held = await transaction.jobs.findRunningOnNode(node.id);
      if (held?.currentLeaseId) {
        // One job at a time: a node asking again (its agent restarted, or the answer was lost)
        // gets the lease it holds, extended.
        const attempt = await transaction.jobAttempts.findByLeaseId(held.currentLeaseId);
        if (attempt) {
          const extended = await transaction.jobs.update(held.id, {
            leaseExpiresAt:
              held.runDeadlineAt && held.runDeadlineAt < expiresAt ? held.runDeadlineAt : expiresAt,
          });
          return toLease(extended, attempt);
        }
      }
      if (node.pausedAt) return null;
      // A node whose results keep failing verification gets no more work.
      if (node.resultsRefused >= replication.refusalsBeforeExclusion) return null;
      const jobTypes = runnableTypesOf(node);
      if (jobTypes.length === 0) return null;
      // One provider cannot take the whole queue, however many nodes it runs. (Two of its nodes
      // leasing at the same instant may each pass: the overshoot is at most its node count.)
      const recentLeases = await transaction.jobAttempts.countLeasesOfOwnerSince(
        node.ownerId,
        addSeconds(now, -60),
      );
      if (recentLeases >= providerLeasesPerMinute) return null;
      const job = await transaction.jobs.lockNextQueuedForNode(node, jobTypes);
      if (!job) return null;

      const attemptNumber = job.attempts + 1;
      const leaseId = randomUUID();
      const runDeadlineAt = new Date(
        now.getTime() + jobCostModel(job.jobType, job.params).maxRuntimeMs,
      );
      const leased = await transaction.jobs.update(job.id, {
        status: 'running',
        assignedNodeId: node.id,
        attempts: attemptNumber,
        currentLeaseId: leaseId,
        leaseExpiresAt: expiresAt < runDeadlineAt ? expiresAt : runDeadlineAt,
        runDeadlineAt,
        startedAt: job.startedAt ?? now,
        progress: 0,
        progressMessage: null,
        queueReason: null,
        updatedAt: now,
      });
      const attempt: JobAttemptRow = {
        leaseId,
        jobId: job.id,
        nodeId: node.id,
        attemptNumber,
        challengeSeed: randomInt(CHALLENGE_SEED_LIMIT),
        startedAt: now,
        endedAt: null,
        outcome: null,
        error: null,
        usageWallMs: null,
        usageCpuMs: null,
        usagePeakMemoryBytes: null,
        committedAt: null,
        committedResult: null,
        commitment: null,
        challenge: null,
      };
      await transaction.jobAttempts.insert(attempt);
      return toLease(leased, attempt);
    });
  }

  /**
   * The attempt behind `leaseId` when it is this node's attempt on this job. Null when the node has
   * held this job but not under that lease id (a stale or wrong lease: 409 or abort). A job the node
   * never held is someone else's: 404.
   */
  async function findOwnAttempt(
    nodeId: string,
    jobId: string,
    leaseId: string,
  ): Promise<JobAttemptRow | null> {
    const attempt = await repositories.jobAttempts.findByLeaseId(leaseId);
    if (attempt && attempt.jobId === jobId && attempt.nodeId === nodeId) return attempt;
    if (await repositories.jobAttempts.existsForNodeAndJob(nodeId, jobId)) return null;
    throw notFound(LEASE_NOT_FOUND_MESSAGE);
  }

  function isCurrentLease(job: JobRow | undefined, leaseId: string): job is JobRow {
    return job?.status === 'running' && job.currentLeaseId === leaseId;
  }

  /** Ends the current attempt without a result, in one transaction; 409 if the lease is gone. */
  async function endAttempt(
    jobId: string,
    leaseId: string,
    ending: UnsuccessfulAttempt,
  ): Promise<JobRow> {
    const result = await repositories.transaction(async (transaction) => {
      const job = await transaction.jobs.lockById(jobId);
      if (!isCurrentLease(job, leaseId)) throw leaseNotValid();
      return endUnsuccessfulAttempt(transaction, job, ending, clock());
    });
    if (result.isRequeued) wakeups.announce();
    return result.job;
  }

  const scheduler = {
    /**
     * Takes back leases whose heartbeats stopped (the job is queued again, the attempt counted,
     * or failed after max_attempts), fails jobs no node picked up within the queue timeout (free
     * of charge) and marks silent nodes offline. Safe in several processes: jobs are taken with
     * SKIP LOCKED, the offline update is idempotent.
     */
    async sweep(): Promise<void> {
      const now = clock();
      lastSweepAt = now.getTime();
      let isAnyRequeued = false;
      for (;;) {
        const { count, requeued } = await repositories.transaction(async (transaction) => {
          const expired = await transaction.jobs.lockExpiredLeases(now, SWEEP_BATCH);
          let requeuedHere = false;
          for (const job of expired) {
            // A node that heartbeats but never finishes is taken off the job for good.
            const isPastDeadline = job.runDeadlineAt !== null && job.runDeadlineAt <= now;
            const ended = await endUnsuccessfulAttempt(
              transaction,
              job,
              {
                outcome: 'expired',
                reason: isPastDeadline
                  ? ranPastMaximumRuntime(jobCostModel(job.jobType, job.params).maxRuntimeMs)
                  : NODE_STOPPED_RESPONDING,
                isCounted: true,
                isRetryable: true,
                excludesNode: isPastDeadline,
              },
              now,
            );
            requeuedHere ||= ended.isRequeued;
          }
          return { count: expired.length, requeued: requeuedHere };
        });
        isAnyRequeued ||= requeued;
        if (count < SWEEP_BATCH) break;
      }
      for (;;) {
        const { count, requeued } = await repositories.transaction(async (transaction) => {
          const due = await transaction.jobs.lockReplicationDue(now, SWEEP_BATCH);
          let requeuedHere = false;
          for (const job of due) {
            requeuedHere ||= (await endReplicationWait(transaction, job, now)).isRequeued;
          }
          return { count: due.length, requeued: requeuedHere };
        });
        isAnyRequeued ||= requeued;
        if (count < SWEEP_BATCH) break;
      }
      const queueCutoff = addSeconds(now, -queueTimeoutHours * 60 * 60);
      for (;;) {
        const count = await repositories.transaction(async (transaction) => {
          const unpicked = await transaction.jobs.lockQueuedSince(queueCutoff, SWEEP_BATCH);
          for (const job of unpicked) {
            await failQueuedJobUnpicked(transaction, job, queueTimeoutHours, now);
          }
          return unpicked.length;
        });
        if (count < SWEEP_BATCH) break;
      }
      const silenced = await repositories.nodes.markSilentNodesOffline(
        addSeconds(now, -LEASE_TIMEOUT_SECONDS),
        now,
      );
      for (const node of silenced) {
        await notify(repositories, {
          userId: node.ownerId,
          kind: 'node_offline',
          title: `${node.name ?? 'Unnamed Node'} went offline`,
          body: `Its last heartbeat was ${node.lastHeartbeatAt ? heartbeatTime.format(node.lastHeartbeatAt) : 'at enrollment'} (UTC). It gets no jobs until its agent runs again.`,
          link: `/nodes/${node.id}`,
          // One notification per silence, however many processes sweep.
          dedupeKey: `node-offline:${node.id}:${node.lastHeartbeatAt?.toISOString() ?? ''}`,
          now,
        });
      }
      if (isAnyRequeued) wakeups.announce();
    },

    /**
     * A lease for the node: at once when there is work, else after waiting up to `waitSeconds`
     * for a wake-up (a submit here or in another process). Null when the wait ends empty-handed,
     * the app shuts down, or `signal` aborts (the client went away); a lease won just as the
     * client went away is handed back uncounted.
     */
    async lease(nodeId: string, waitSeconds: number, signal: AbortSignal): Promise<Lease | null> {
      if (clock().getTime() - lastSweepAt >= SWEEP_AT_MOST_EVERY_MILLISECONDS) {
        await scheduler.sweep();
      }
      const deadline = Date.now() + waitSeconds * 1000;
      const isCalledOff = () => signal.aborted || wakeups.isStopped;
      for (;;) {
        const watch = wakeups.watch();
        const lease = await leaseOnce(nodeId);
        if (lease && signal.aborted) {
          await scheduler
            .release(nodeId, lease.job_id, lease.lease_id)
            .catch((error: unknown) =>
              logger.warn(loggableError(error), 'Could not hand back a lease nobody received'),
            );
          return null;
        }
        if (lease) return lease;
        const remaining = deadline - Date.now();
        if (remaining <= 0 || isCalledOff()) return null;
        await watch.wait(Math.min(remaining, WAIT_RECHECK_MILLISECONDS), signal);
        if (isCalledOff()) return null;
      }
    },

    /** Records progress and extends the lease; `abort` when the job is no longer this lease's. */
    async progress(
      nodeId: string,
      jobId: string,
      input: ProgressRequest,
    ): Promise<ProgressResponse> {
      if (!(await findOwnAttempt(nodeId, jobId, input.lease_id))) return { abort: true };
      const now = clock();
      const isCurrent = await repositories.jobs.recordProgress(jobId, input.lease_id, {
        progress: input.progress,
        message: input.message ?? null,
        leaseExpiresAt: addSeconds(now, LEASE_TIMEOUT_SECONDS),
        now,
      });
      if (isCurrent) await repositories.nodes.recordHeartbeat(nodeId, now, undefined);
      return { abort: !isCurrent };
    },

    /**
     * Step 1 of a result: its shape (400 naming the field) and the commitment are stored with the
     * usage, then a challenge is drawn, which the node did not know while it computed. Committing
     * again with the same result and commitment answers the same challenge (a lost answer); with
     * anything else, 409.
     */
    async commit(
      nodeId: string,
      jobId: string,
      input: CommitJobRequest,
    ): Promise<CommitJobResponse> {
      const attempt = await findOwnAttempt(nodeId, jobId, input.lease_id);
      const job = await repositories.jobs.findById(jobId);
      if (!attempt || !isCurrentLease(job, input.lease_id)) throw leaseNotValid();
      const result = parseReported(job.jobType, 'result', input.result);
      const commitment = parseReported(job.jobType, 'commitment', input.commitment);
      const isSameCommit = (stored: JobAttemptRow) =>
        isDeepStrictEqual(stored.committedResult, result) &&
        isDeepStrictEqual(stored.commitment, commitment);
      if (attempt.committedAt) {
        if (attempt.challenge && isSameCommit(attempt)) return { challenge: attempt.challenge };
        throw new HttpError(409, ALREADY_COMMITTED_MESSAGE, ERROR_CODES.conflict);
      }
      const challenge = drawChallenge(job.jobType, job.params, randomInt);
      const now = clock();
      const stored = await repositories.jobAttempts.commit(input.lease_id, {
        committedAt: now,
        committedResult: result,
        commitment,
        challenge,
        usageWallMs: input.usage.wall_ms,
        usageCpuMs: input.usage.cpu_ms,
        usagePeakMemoryBytes: input.usage.peak_memory_bytes,
      });
      if (!stored) {
        // Two commits raced: the one stored first stands.
        const winner = await repositories.jobAttempts.findByLeaseId(input.lease_id);
        if (winner?.challenge && isSameCommit(winner)) return { challenge: winner.challenge };
        throw new HttpError(409, ALREADY_COMMITTED_MESSAGE, ERROR_CODES.conflict);
      }
      // A commit is a sign of life: the lease lasts while the node opens the challenge.
      await repositories.jobs.recordProgress(jobId, input.lease_id, {
        progress: 1,
        message: 'verifying the result',
        leaseExpiresAt: addSeconds(now, LEASE_TIMEOUT_SECONDS),
        now,
      });
      return { challenge };
    },

    /**
     * Step 2: the opening of the committed result's challenge (400 when it does not fit the type's
     * opening shape). Verified: the job is completed and billed for the usage reported at commit.
     * Refused: the attempt fails unpaid and the job is retried on another node, or fails after
     * max_attempts.
     */
    async complete(
      nodeId: string,
      jobId: string,
      input: CompleteJobRequest,
    ): Promise<CompleteJobResponse> {
      const attempt = await findOwnAttempt(nodeId, jobId, input.lease_id);
      const job = await repositories.jobs.findById(jobId);
      if (!attempt || !isCurrentLease(job, input.lease_id)) throw leaseNotValid();
      const result = attempt.committedResult;
      if (!attempt.committedAt || !result) {
        throw new HttpError(409, NOT_COMMITTED_MESSAGE, ERROR_CODES.conflict);
      }
      const opening = parseReported(job.jobType, 'opening', input.opening);
      const usage = {
        wall_ms: attempt.usageWallMs ?? 0,
        cpu_ms: attempt.usageCpuMs ?? 0,
        peak_memory_bytes: attempt.usagePeakMemoryBytes ?? 0,
      };
      // Outside the transaction: verification is CPU work and holds no lock.
      const verdict = verifyResult(job.jobType, job.params, result, attempt.challengeSeed, {
        commitment: attempt.commitment,
        challenge: attempt.challenge,
        opening,
      });

      const outcome = await repositories.transaction(async (transaction) => {
        const locked = await transaction.jobs.lockById(jobId);
        if (!isCurrentLease(locked, input.lease_id)) throw leaseNotValid();
        const now = clock();
        if (!verdict.ok) {
          await recordRefusal(transaction, nodeId, replication, now);
          return endUnsuccessfulAttempt(
            transaction,
            locked,
            {
              outcome: 'rejected',
              reason: `result verification failed: ${verdict.reason}`,
              usage,
              isCounted: true,
              isRetryable: true,
              excludesNode: true,
            },
            now,
          );
        }
        return acceptVerifiedAttempt(transaction, locked, attempt, replication, now);
      });
      if (outcome.isRequeued) wakeups.announce();
      return verdict.ok
        ? { accepted: true, reason: null }
        : { accepted: false, reason: verdict.reason };
    },

    /** retryable: back to the queue (counted) or failed after max_attempts; else failed at once. */
    async fail(nodeId: string, jobId: string, input: FailJobRequest): Promise<void> {
      if (!(await findOwnAttempt(nodeId, jobId, input.lease_id))) throw leaseNotValid();
      await endAttempt(jobId, input.lease_id, {
        outcome: 'failed',
        reason: input.error,
        ...(input.usage ? { usage: input.usage } : {}),
        isCounted: true,
        isRetryable: input.retryable,
        excludesNode: false,
      });
    },

    /** Handed back unfinished: queued again, the attempt not counted. */
    async release(nodeId: string, jobId: string, leaseId: string): Promise<void> {
      if (!(await findOwnAttempt(nodeId, jobId, leaseId))) throw leaseNotValid();
      await endAttempt(jobId, leaseId, {
        outcome: 'released',
        reason: 'handed back by its node',
        isCounted: false,
        isRetryable: true,
        excludesNode: false,
      });
    },

    waitingLeaseCount: () => wakeups.waitingCount(),
  };
  return scheduler;
}

export type SchedulerService = ReturnType<typeof createSchedulerService>;
