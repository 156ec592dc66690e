import type { Lease } from '@fabric/contract';

// Dispatch of a lease to its kernel. Filled in with @fabric/compute's kernels.

export class KernelUnavailableError extends Error {}

export interface KernelHooks {
  maxCores: number;
  onProgress(fraction: number, message?: string): void;
  shouldStop(): boolean;
}

export function runLeasedKernel(
  lease: Lease,
  _hooks: KernelHooks,
): Promise<Record<string, unknown>> {
  return Promise.reject(
    new KernelUnavailableError(`This agent has no kernel for ${lease.job_type} yet`),
  );
}
