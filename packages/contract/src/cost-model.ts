import { jobTypeDefinition, type JobType } from './job-types/index.ts';

// What a job may cost, computed from its params alone, so nothing a device reports can raise it.
// Each type's reference CPU time (its definition's costModel, job-types/) was measured on the reference kernels (packages/compute,
// scripts/measure.ts) on one core of a 2-core AMD EPYC under load; the budget multiplies it by
// COST_MODEL_HEADROOM for slow devices and adds a fixed allowance for starting the kernel
// process. The server bills the smallest of: the CPU time the device reports, the time the server
// itself saw the lease run times the cores the job may use, and this budget. The same budget sets
// the longest a lease may run before the server takes it back.

/** A provider device may be this many times slower than the reference core and still be paid in full. */
export const COST_MODEL_HEADROOM = 6;
/** Starting the kernel process, reading params, building the result: allowed to every job. */
export const COST_MODEL_FIXED_MS = 2000;
/** A lease may run this much longer than the job's CPU budget before the server takes it back. */
export const MAX_RUNTIME_GRACE_MS = 60_000;
/** The most cores one job is billed for, whatever a device says it has. */
export const MAX_BILLED_CORES = 32;
/**
 * Beside its kernel threads, a job's process runs the JavaScript runtime's own threads (garbage
 * collection, compilation), whose CPU time the agent measures with the rest: one more core of
 * observed time is allowed for them, so an honest single-threaded job is billed what it used.
 */
export const RUNTIME_THREADS_ALLOWANCE = 1;

export interface JobCostModel {
  /** CPU time of the reference kernel for these params, in milliseconds. */
  referenceCpuMs: number;
  /** The most CPU time a job with these params is ever billed for. */
  maxBillableCpuMs: number;
  /** Whether the kernel spreads over several cores (otherwise it is billed for one). */
  isParallel: boolean;
  /** The longest a lease of this job may run (wall time) before it is taken back, free. */
  maxRuntimeMs: number;
}

/** The cost model of one job, from its type and (validated) params. */
export function jobCostModel(jobType: JobType, params: Record<string, unknown>): JobCostModel {
  // The AI types have no model until their kernels exist: no node is leased them, and the
  // budget is zero, so nothing could be billed for them.
  const definition = jobTypeDefinition(jobType);
  const model = definition?.costModel;
  if (!model) {
    return { referenceCpuMs: 0, maxBillableCpuMs: 0, isParallel: false, maxRuntimeMs: 0 };
  }
  const referenceCpuMs = Math.max(0, model.referenceMs(params));
  const maxBillableCpuMs = Math.ceil(referenceCpuMs * COST_MODEL_HEADROOM + COST_MODEL_FIXED_MS);
  return {
    referenceCpuMs: Math.round(referenceCpuMs),
    maxBillableCpuMs,
    isParallel: model.isParallel,
    // One core at the slowest paid speed: a parallel job only finishes sooner.
    maxRuntimeMs: maxBillableCpuMs + MAX_RUNTIME_GRACE_MS,
  };
}

/**
 * The CPU time a job is billed for: what the device reports, never more than the server saw the
 * lease run (its own clock, times the cores the job may use) nor the job's budget. A device can
 * only lower its bill by what it reports.
 */
export function billableCpuMs(input: {
  jobType: JobType;
  params: Record<string, unknown>;
  reportedCpuMs: number;
  /** Lease start to the report, on the server's clock. */
  observedWallMs: number;
  /** The cores the node says it offers (clamped to 1..MAX_BILLED_CORES). */
  nodeCores: number;
}): number {
  const model = jobCostModel(input.jobType, input.params);
  const kernelCores = model.isParallel
    ? Math.min(MAX_BILLED_CORES, Math.max(1, Math.floor(input.nodeCores) || 1))
    : 1;
  const cores = kernelCores + RUNTIME_THREADS_ALLOWANCE;
  return Math.max(
    0,
    Math.min(
      Math.round(input.reportedCpuMs),
      Math.round(Math.max(0, input.observedWallMs) * cores),
      model.maxBillableCpuMs,
    ),
  );
}
