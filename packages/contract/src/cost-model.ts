import { jobTypeDefinition, type JobType } from './job-types/index.ts';

// What a job costs, computed from its params alone, so nothing a device reports can raise it.
// Each type's reference CPU time (its definition's costModel, job-types/) was measured on the
// reference kernels (packages/compute, scripts/measure.ts) on one core of a 2-core AMD EPYC under
// load. A completed job is billed for that work, the work its verified result needed, whatever the
// device says it used: a device that reports more CPU time is paid the same as an honest one, and
// a slow device costs its enterprise no more than a fast one. The server's own clock bounds it
// too: a result that comes back sooner than the declared cores could have computed it (a cached
// answer) is billed only for the time the server saw. The CPU budget (× COST_MODEL_HEADROOM for
// slow devices, plus a fixed allowance for starting the kernel process) sets the longest a lease
// may run before the server takes it back.

/** A provider device may be this many times slower than the reference core and still finish. */
export const COST_MODEL_HEADROOM = 6;
/** Starting the kernel process, reading params, building the result: allowed to every job. */
export const COST_MODEL_FIXED_MS = 2000;
/** A lease may run this much longer than the job's CPU budget before the server takes it back. */
export const MAX_RUNTIME_GRACE_MS = 60_000;
/** The most cores one job is billed for, whatever a device says it has. */
export const MAX_BILLED_CORES = 32;
/**
 * One more core of observed time than the kernel's, so that a device somewhat faster than the
 * reference core (or a parallel kernel's uneven split) is still billed the whole work; only a
 * result far faster than the declared cores allow (a cached answer) is billed less.
 */
export const RUNTIME_THREADS_ALLOWANCE = 1;

export interface JobCostModel {
  /** CPU time of the reference kernel for these params, in milliseconds. */
  referenceCpuMs: number;
  /** The most CPU time a device may spend on these params (a slow one) before it loses the lease. */
  cpuBudgetMs: number;
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
    return { referenceCpuMs: 0, cpuBudgetMs: 0, isParallel: false, maxRuntimeMs: 0 };
  }
  const referenceCpuMs = Math.max(0, model.referenceMs(params));
  const cpuBudgetMs = Math.ceil(referenceCpuMs * COST_MODEL_HEADROOM + COST_MODEL_FIXED_MS);
  return {
    referenceCpuMs: Math.round(referenceCpuMs),
    cpuBudgetMs,
    isParallel: model.isParallel,
    // One core at the slowest allowed speed: a parallel job only finishes sooner.
    maxRuntimeMs: cpuBudgetMs + MAX_RUNTIME_GRACE_MS,
  };
}

/**
 * What an ended attempt is billed for:
 * - `verified_result`: a result that passed verification, billed for the work it needed (the
 *   reference CPU time of its params) — or less when the server saw the lease run for less time
 *   than that work takes on the cores the job may use;
 * - `time_spent`: a run with no result (cancelled by its owner, or a failure that a node of another
 *   provider confirmed), billed for the time the server saw it run on one core, never more than the
 *   whole job's work.
 */
export type BillingBasis = 'verified_result' | 'time_spent';

/**
 * The CPU time an attempt is billed for, from the job's params and the server's own clock only:
 * the usage a device reports is recorded and shown, never billed, so inflating it earns nothing.
 */
export function billableCpuMs(input: {
  jobType: JobType;
  params: Record<string, unknown>;
  basis: BillingBasis;
  /** Lease start to the result (or the end of the run), on the server's clock. */
  observedWallMs: number;
  /** The cores the node says it offers (clamped to 1..MAX_BILLED_CORES). */
  nodeCores: number;
}): number {
  const model = jobCostModel(input.jobType, input.params);
  const observedMs = Math.max(0, input.observedWallMs);
  if (input.basis === 'time_spent') {
    return Math.round(Math.min(observedMs, model.referenceCpuMs));
  }
  const kernelCores = model.isParallel
    ? Math.min(MAX_BILLED_CORES, Math.max(1, Math.floor(input.nodeCores) || 1))
    : 1;
  const cores = kernelCores + RUNTIME_THREADS_ALLOWANCE;
  return Math.round(Math.min(model.referenceCpuMs, observedMs * cores));
}
