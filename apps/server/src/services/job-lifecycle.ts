import type { JobUsage } from '@fabric/contract';
import type { AttemptOutcome, JobRow } from '../db/schema.ts';
import type { Repositories } from '../repositories/index.ts';
import { meteredCharge, settleJob, type JobCharge } from './billing.ts';
import { usageColumns } from './job-view.ts';
import { waitingForReplicaReason } from './replication.ts';

// How an attempt that did not produce an accepted result ends, shared by the scheduler (fail,
// release, refused results, expired leases) and by unenrolling a node; and how a job that no node
// picked up in time ends.

export interface UnsuccessfulAttempt {
  outcome: Exclude<AttemptOutcome, 'completed' | 'cancelled'>;
  /** Why, in words for the job's owner: "node stopped responding". */
  reason: string;
  usage?: JobUsage;
  /** False when the attempt is handed back: it does not count towards max_attempts. */
  isCounted: boolean;
  /** False when the error would recur on any node (bad params): the job fails at once. */
  isRetryable: boolean;
  /** The node's result failed verification: the job is never leased to that node again. */
  excludesNode: boolean;
}

export interface AttemptEndResult {
  job: JobRow;
  /** The job went back to the queue: waiting agents should be woken once the transaction commits. */
  isRequeued: boolean;
}

/**
 * Ends the job's current attempt and either queues the job again or fails it. Call inside a
 * transaction holding the job's row lock, with the job still on lease `job.currentLeaseId`.
 */
export async function endUnsuccessfulAttempt(
  repositories: Repositories,
  job: JobRow,
  ending: UnsuccessfulAttempt,
  now: Date,
): Promise<AttemptEndResult> {
  const leased = job.currentLeaseId
    ? await repositories.jobAttempts.findByLeaseId(job.currentLeaseId)
    : undefined;
  let attempt = ending;
  let charge: JobCharge = null;
  let extraExcludedNodeIds: string[] = [];
  // A device saying the job itself cannot run is a claim, not a fact: it is believed (and the job
  // pays for that attempt's time on one core) only when a node of another provider ended the job
  // with the same failure. Until then the job tries a node of another provider; when there is
  // none, it fails free of charge.
  const failedNode =
    ending.outcome === 'failed' && !ending.isRetryable && leased
      ? await repositories.nodes.findAnyById(leased.nodeId)
      : undefined;
  if (leased && failedNode) {
    const ownerId = failedNode.ownerId;
    if (await repositories.jobAttempts.hasSameFailureElsewhere(job.id, ending.reason, ownerId)) {
      charge = await meteredCharge(repositories, job, leased, now, 'time_spent');
    } else {
      extraExcludedNodeIds = await repositories.nodes.listEnrolledIdsOfOwner(ownerId);
      const excluded = [...new Set([...job.excludedNodeIds, ...extraExcludedNodeIds])];
      const isConfirmable =
        job.attempts < job.maxAttempts &&
        (await repositories.nodes.existsRunnerOfOtherOwner({
          jobType: job.jobType,
          ownerIds: [ownerId],
          excludedNodeIds: excluded,
        }));
      if (isConfirmable) attempt = { ...ending, isRetryable: true };
    }
  }
  if (job.currentLeaseId) {
    await repositories.jobAttempts.end(job.currentLeaseId, {
      endedAt: now,
      outcome: attempt.outcome,
      error: attempt.reason,
      ...usageColumns(attempt.usage),
    });
  }
  const attempts = attempt.isCounted ? job.attempts : Math.max(0, job.attempts - 1);
  const excludedNodeIds = [
    ...new Set([
      ...job.excludedNodeIds,
      ...(attempt.excludesNode && job.assignedNodeId ? [job.assignedNodeId] : []),
      ...(attempt.isRetryable ? extraExcludedNodeIds : []),
    ]),
  ];
  const common = {
    attempts,
    excludedNodeIds,
    currentLeaseId: null,
    leaseExpiresAt: null,
    runDeadlineAt: null,
    updatedAt: now,
  };

  // A job holding a verified result waiting for its replica never fails here: its replication
  // deadline ends it (services/replication.ts).
  const holdsVerifiedResult = job.candidateLeaseIds.length > 0;
  if (
    !holdsVerifiedResult &&
    (!attempt.isRetryable || (attempt.isCounted && attempts >= job.maxAttempts))
  ) {
    const error = attempt.isRetryable
      ? `Job failed after ${attempts} ${attempts === 1 ? 'attempt' : 'attempts'}: ${attempt.reason}`
      : attempt.reason;
    const failed = await repositories.jobs.update(job.id, {
      ...common,
      status: 'failed',
      error,
      queueReason: null,
      finishedAt: now,
    });
    // The network's or a device's failure is free; `charge` is set only for a failure that
    // repeated on another provider's node (above).
    await settleJob(repositories, failed, charge, now);
    return { job: failed, isRequeued: false };
  }

  const requeued = await repositories.jobs.update(job.id, {
    ...common,
    status: 'queued',
    progress: 0,
    progressMessage: null,
    queueReason: holdsVerifiedResult
      ? waitingForReplicaReason(job.candidateLeaseIds.length)
      : attempt.isCounted
        ? `Attempt ${attempts} of ${job.maxAttempts} ended (${attempt.reason}); waiting for a node to try again`
        : null,
  });
  return { job: requeued, isRequeued: true };
}

/** The error of a job that waited in the queue for `hours` without a node picking it up. */
export function queueTimeoutMessage(hours: number): string {
  return `No node picked up this job within ${hours.toString()} ${hours === 1 ? 'hour' : 'hours'}, so it was stopped. Nothing was charged.`;
}

/**
 * Fails a job that waited too long in the queue, free of charge: its whole hold goes back to the
 * owner, who is notified. Call inside a transaction holding the job's row lock.
 */
export async function failQueuedJobUnpicked(
  repositories: Repositories,
  job: JobRow,
  queueTimeoutHours: number,
  now: Date,
): Promise<void> {
  const failed = await repositories.jobs.update(job.id, {
    status: 'failed',
    error: queueTimeoutMessage(queueTimeoutHours),
    queueReason: null,
    finishedAt: now,
    updatedAt: now,
  });
  await settleJob(repositories, failed, null, now);
}
