import type { JobType } from '@fabric/contract';
import { fibonacci } from './fibonacci/index.ts';
import type { ComputeJobType } from './job-type.ts';
import { matrixMultiply } from './matrix-multiply/index.ts';
import { neuralNetworkTraining } from './neural-network-training/index.ts';
import { primeSieve } from './prime-sieve/index.ts';

/**
 * Every job type with a kernel, by its contract name: the one table verification, the proofs and
 * replication read. A new type is a folder beside these and a line here.
 */
export const COMPUTE_JOB_TYPES = {
  matrix_multiply: matrixMultiply,
  fibonacci,
  prime_sieve: primeSieve,
  neural_network_training: neuralNetworkTraining,
} as const satisfies Partial<Record<JobType, ComputeJobType>>;

export type ComputedJobType = keyof typeof COMPUTE_JOB_TYPES;

/** The type's compute side, or undefined for a type without a kernel yet. */
export function computeJobType(jobType: JobType): ComputeJobType | undefined {
  return Object.hasOwn(COMPUTE_JOB_TYPES, jobType)
    ? COMPUTE_JOB_TYPES[jobType as ComputedJobType]
    : undefined;
}
