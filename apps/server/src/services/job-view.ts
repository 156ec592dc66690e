import type { Job, JobPriority, JobUsage, Lease } from '@fabric/contract';
import type { JobAttemptRow, JobRow } from '../db/schema.ts';
import { microDollarsToDollars } from '../lib/money.ts';

export function usageOf(row: {
  usageWallMs: number | null;
  usageCpuMs: number | null;
  usagePeakMemoryBytes: number | null;
}): JobUsage | null {
  if (row.usageWallMs === null || row.usageCpuMs === null || row.usagePeakMemoryBytes === null) {
    return null;
  }
  return {
    wall_ms: row.usageWallMs,
    cpu_ms: row.usageCpuMs,
    peak_memory_bytes: row.usagePeakMemoryBytes,
  };
}

/** Usage columns of a job or attempt row from the agent's report. */
export function usageColumns(usage: JobUsage | undefined) {
  return usage
    ? {
        usageWallMs: usage.wall_ms,
        usageCpuMs: usage.cpu_ms,
        usagePeakMemoryBytes: usage.peak_memory_bytes,
      }
    : {};
}

/** `queueTimeoutHours`: a queued job fails when it has waited this long (QUEUE_TIMEOUT_HOURS). */
export function toJobResponse(job: JobRow, queueTimeoutHours: number): Job {
  return {
    id: job.id,
    job_type: job.jobType,
    status: job.status,
    priority: job.priority as JobPriority,
    params: job.params,
    estimated_cost:
      job.estimatedCostMicros === null ? null : microDollarsToDollars(job.estimatedCostMicros),
    actual_cost: job.actualCostMicros === null ? null : microDollarsToDollars(job.actualCostMicros),
    assigned_node_id: job.assignedNodeId,
    created_at: job.createdAt.toISOString(),
    started_at: job.startedAt?.toISOString() ?? null,
    finished_at: job.finishedAt?.toISOString() ?? null,
    attempts: job.attempts,
    max_attempts: job.maxAttempts,
    progress: job.progress,
    progress_message: job.progressMessage,
    queue_reason: job.queueReason,
    // A queued job's updated_at is when it entered the queue (see lockQueuedSince).
    queue_expires_at:
      job.status === 'queued'
        ? new Date(job.updatedAt.getTime() + queueTimeoutHours * 60 * 60 * 1000).toISOString()
        : null,
    result: job.result,
    error: job.error,
    usage: usageOf(job),
    billed_cpu_ms: job.billedCpuMs,
    replication: job.status === 'completed' ? job.replication : null,
  };
}

export function toLease(job: JobRow, attempt: JobAttemptRow): Lease {
  if (!job.leaseExpiresAt) throw new Error(`Job ${job.id} is leased without an expiry`);
  return {
    lease_id: attempt.leaseId,
    job_id: job.id,
    job_type: job.jobType,
    params: job.params,
    priority: job.priority as JobPriority,
    attempt: attempt.attemptNumber,
    expires_at: job.leaseExpiresAt.toISOString(),
    challenge_seed: attempt.challengeSeed,
  };
}
