import { replicasAgree } from '@fabric/compute';
import { HEARTBEAT_INTERVAL_SECONDS, type JobReplication } from '@fabric/contract';
import type { JobAttemptRow, JobRow, NodeRow } from '../db/schema.ts';
import { addSeconds } from '../lib/clock.ts';
import type { Repositories } from '../repositories/index.ts';
import { meteredCharge, settleJob } from './billing.ts';
import type { AttemptEndResult } from './job-lifecycle.ts';
import { usageColumns } from './job-view.ts';
import { notify } from './notify.ts';

// Replication: a share of jobs (REPLICATION_SHARE), and every job of a node with little history
// (REPLICATION_TRUSTED_AFTER_JOBS), also runs on a node of another provider once its result passed
// its challenge; the job completes when the two results agree. Until then the verified attempt is a
// candidate and the job waits in the queue for nodes of other providers only. It never holds a job
// hostage: when no such node is free now the job completes at once, and when none takes it within
// REPLICATION_WAIT_SECONDS it completes on its challenge alone, marked not_replicated. Two results
// that disagree wait for a third run, which settles it; the outvoted node is refused. The
// enterprise pays for one run; the provider share is split between the two agreeing providers.

export interface ReplicationPolicy {
  share: number;
  waitSeconds: number;
  trustedAfterJobs: number;
  refusalsBeforeExclusion: number;
  queueTimeoutHours: number;
  /** Uniform in [0, 1). */
  random: () => number;
}

export const WAITING_FOR_REPLICA =
  'Its result passed verification; waiting for a node of another provider to replicate it';
export const WAITING_FOR_THIRD_RUN =
  'Two nodes of different providers returned different results; waiting for a third to settle it';
/** What a job waiting with `candidates` verified results is waiting for. */
export function waitingForReplicaReason(candidates: number): string {
  return candidates > 1 ? WAITING_FOR_THIRD_RUN : WAITING_FOR_REPLICA;
}
export const OUTVOTED = 'its result disagreed with the results of two nodes of other providers';
export const THREE_WAY_DISAGREEMENT =
  'Three nodes of different providers returned three different results, so none can be trusted. Nothing was charged.';
export const UNSETTLED_DISAGREEMENT =
  'Two nodes of different providers returned different results and no third node settled it in time. Nothing was charged.';

const committed = (attempt: JobAttemptRow) => ({
  result: attempt.committedResult,
  commitment: attempt.commitment,
});

async function loadCandidates(repositories: Repositories, job: JobRow): Promise<JobAttemptRow[]> {
  // One query at a time: inside a transaction they share one connection.
  const rows: JobAttemptRow[] = [];
  for (const leaseId of job.candidateLeaseIds) {
    const row = await repositories.jobAttempts.findByLeaseId(leaseId);
    if (row) rows.push(row);
  }
  return rows;
}

/**
 * A node's result was refused (verification, or outvoted by replicas): one more mark against it,
 * and when that reaches the limit, its owner hears that it gets no more work.
 */
export async function recordRefusal(
  repositories: Repositories,
  nodeId: string,
  policy: Pick<ReplicationPolicy, 'refusalsBeforeExclusion'>,
  now: Date,
): Promise<void> {
  const node = await repositories.nodes.incrementResultsRefused(nodeId, now);
  if (node?.resultsRefused !== policy.refusalsBeforeExclusion) return;
  await notify(repositories, {
    userId: node.ownerId,
    kind: 'node_offline',
    title: `${node.name ?? 'Unnamed Node'} gets no more jobs`,
    body: `${node.resultsRefused} of its results failed verification, so the network no longer leases it work. Check the device's hardware and agent, then enroll it again.`,
    link: `/nodes/${node.id}`,
    dedupeKey: `node-excluded:${node.id}`,
    now,
  });
}

/** The job back in the queue for nodes of other providers, with its candidates kept. */
async function waitForReplica(
  repositories: Repositories,
  job: JobRow,
  candidates: JobAttemptRow[],
  deadline: Date,
  reason: string,
  now: Date,
): Promise<AttemptEndResult> {
  const owners: (NodeRow | undefined)[] = [];
  for (const candidate of candidates) {
    owners.push(await repositories.nodes.findAnyById(candidate.nodeId));
  }
  const excludedOwnerIds = [
    ...new Set([
      ...job.excludedOwnerIds,
      ...owners.flatMap((node) => (node ? [node.ownerId] : [])),
    ]),
  ];
  const parked = await repositories.jobs.update(job.id, {
    status: 'queued',
    candidateLeaseIds: candidates.map((candidate) => candidate.leaseId),
    excludedOwnerIds,
    replicationDeadlineAt: deadline,
    currentLeaseId: null,
    leaseExpiresAt: null,
    runDeadlineAt: null,
    progress: 0,
    progressMessage: null,
    queueReason: reason,
    updatedAt: now,
  });
  return { job: parked, isRequeued: true };
}

/** Completes the job with `winner`'s result; `coEarner` replicated it and shares the provider pay. */
async function completeWith(
  repositories: Repositories,
  job: JobRow,
  winner: JobAttemptRow,
  coEarner: JobAttemptRow | null,
  replication: JobReplication | null,
  now: Date,
): Promise<AttemptEndResult> {
  await repositories.nodes.incrementJobsCompleted(winner.nodeId, now);
  if (coEarner) await repositories.nodes.incrementJobsCompleted(coEarner.nodeId, now);
  const completed = await repositories.jobs.update(job.id, {
    status: 'completed',
    result: winner.committedResult,
    usageWallMs: winner.usageWallMs,
    usageCpuMs: winner.usageCpuMs,
    usagePeakMemoryBytes: winner.usagePeakMemoryBytes,
    assignedNodeId: winner.nodeId,
    replication,
    candidateLeaseIds: [],
    replicationDeadlineAt: null,
    progress: 1,
    progressMessage: null,
    error: null,
    queueReason: null,
    currentLeaseId: null,
    leaseExpiresAt: null,
    runDeadlineAt: null,
    finishedAt: now,
    updatedAt: now,
  });
  // Billed as the winning run was observed: from its lease to its own report, not to now.
  const charge = await meteredCharge(
    repositories,
    completed,
    winner,
    winner.endedAt ?? now,
    'verified_result',
  );
  await settleJob(
    repositories,
    completed,
    charge,
    now,
    coEarner ? { nodeId: coEarner.nodeId } : null,
  );
  return { job: completed, isRequeued: false };
}

async function failFree(
  repositories: Repositories,
  job: JobRow,
  error: string,
  now: Date,
): Promise<AttemptEndResult> {
  const failed = await repositories.jobs.update(job.id, {
    status: 'failed',
    error,
    candidateLeaseIds: [],
    replicationDeadlineAt: null,
    queueReason: null,
    currentLeaseId: null,
    leaseExpiresAt: null,
    runDeadlineAt: null,
    finishedAt: now,
    updatedAt: now,
  });
  await settleJob(repositories, failed, null, now);
  return { job: failed, isRequeued: false };
}

/**
 * The current attempt's result passed its challenge: end the attempt, then complete the job, wait
 * for a replica, or settle a replication. Call inside the transaction holding the job's row lock.
 */
export async function acceptVerifiedAttempt(
  repositories: Repositories,
  job: JobRow,
  attempt: JobAttemptRow,
  policy: ReplicationPolicy,
  now: Date,
): Promise<AttemptEndResult> {
  const usage = {
    wall_ms: attempt.usageWallMs ?? 0,
    cpu_ms: attempt.usageCpuMs ?? 0,
    peak_memory_bytes: attempt.usagePeakMemoryBytes ?? 0,
  };
  await repositories.jobAttempts.end(attempt.leaseId, {
    endedAt: now,
    outcome: 'completed',
    error: null,
    ...usageColumns(usage),
  });
  const ended: JobAttemptRow = { ...attempt, endedAt: now, outcome: 'completed' };
  const candidates = await loadCandidates(repositories, job);

  if (candidates.length === 0) {
    const node = await repositories.nodes.findAnyById(attempt.nodeId);
    const isChosen =
      policy.random() < policy.share || (node?.jobsCompleted ?? 0) < policy.trustedAfterJobs;
    if (!isChosen || !node) return completeWith(repositories, job, ended, null, null, now);
    // Only a node that could start it now is worth waiting for: one heard from within two
    // heartbeats and not busy (a stopped agent's node looks online until the sweeper notices).
    const canReplicate = await repositories.nodes.existsRunnerOfOtherOwner({
      jobType: job.jobType,
      ownerIds: [...job.excludedOwnerIds, node.ownerId],
      excludedNodeIds: job.excludedNodeIds,
      free: {
        heardSince: addSeconds(now, -2 * HEARTBEAT_INTERVAL_SECONDS),
        refusalLimit: policy.refusalsBeforeExclusion,
      },
    });
    if (!canReplicate) return completeWith(repositories, job, ended, null, 'not_replicated', now);
    return waitForReplica(
      repositories,
      job,
      [ended],
      addSeconds(now, policy.waitSeconds),
      WAITING_FOR_REPLICA,
      now,
    );
  }

  const agreeing = candidates.find((candidate) =>
    replicasAgree(job.jobType, committed(candidate), committed(ended)),
  );
  if (agreeing) {
    for (const outvoted of candidates.filter((candidate) => candidate !== agreeing)) {
      await repositories.jobAttempts.end(outvoted.leaseId, {
        endedAt: outvoted.endedAt ?? now,
        outcome: 'rejected',
        error: OUTVOTED,
      });
      await recordRefusal(repositories, outvoted.nodeId, policy, now);
    }
    return completeWith(repositories, job, agreeing, ended, 'agreed', now);
  }
  if (candidates.length >= 2) return failFree(repositories, job, THREE_WAY_DISAGREEMENT, now);
  return waitForReplica(
    repositories,
    job,
    [...candidates, ended],
    addSeconds(now, policy.queueTimeoutHours * 60 * 60),
    WAITING_FOR_THIRD_RUN,
    now,
  );
}

/**
 * A job whose replication wait ran out: one candidate completes it on its challenge alone
 * (not_replicated); two that disagree leave it failed, free. Call holding the job's row lock.
 */
export async function endReplicationWait(
  repositories: Repositories,
  job: JobRow,
  now: Date,
): Promise<AttemptEndResult> {
  const candidates = await loadCandidates(repositories, job);
  const [only] = candidates;
  if (candidates.length === 1 && only) {
    return completeWith(repositories, job, only, null, 'not_replicated', now);
  }
  return failFree(repositories, job, UNSETTLED_DISAGREEMENT, now);
}
