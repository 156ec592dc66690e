import type { JobTypeDefinition } from './definition.ts';
import { fibonacciJobType } from './fibonacci.ts';
import { matrixMultiplyJobType } from './matrix-multiply.ts';
import { neuralNetworkTrainingJobType } from './neural-network-training.ts';
import { llmInferenceJobType, transformerInferenceJobType } from './pending-kernel.ts';
import { primeSieveJobType } from './prime-sieve.ts';

/**
 * Every job type by its API name, in the order people see them: the one table the server, the
 * agent and the web client read. A new type is a file beside these and a line here (then
 * `drizzle-kit generate` for the job_type check).
 */
export const JOB_TYPE_DEFINITIONS = {
  matrix_multiply: matrixMultiplyJobType,
  fibonacci: fibonacciJobType,
  prime_sieve: primeSieveJobType,
  neural_network_training: neuralNetworkTrainingJobType,
  transformer_inference: transformerInferenceJobType,
  llm_inference: llmInferenceJobType,
} as const satisfies Record<string, JobTypeDefinition>;

export type JobType = keyof typeof JOB_TYPE_DEFINITIONS;
export const JOB_TYPES = Object.keys(JOB_TYPE_DEFINITIONS) as [JobType, ...JobType[]];

/** The definition of `jobType`, or undefined for a name that is not a job type. */
export function jobTypeDefinition(jobType: string): JobTypeDefinition | undefined {
  return Object.hasOwn(JOB_TYPE_DEFINITIONS, jobType)
    ? JOB_TYPE_DEFINITIONS[jobType as JobType]
    : undefined;
}

/** A value per job type, from its definition (schemas by type, names by type...). */
export function byJobType<T>(pick: (definition: JobTypeDefinition, jobType: JobType) => T) {
  return Object.fromEntries(
    JOB_TYPES.map((jobType) => [jobType, pick(JOB_TYPE_DEFINITIONS[jobType], jobType)]),
  ) as Record<JobType, T>;
}

export type { JobTypeDefinition } from './definition.ts';
export * from './matrix-multiply.ts';
export * from './fibonacci.ts';
export * from './prime-sieve.ts';
export * from './neural-network-training.ts';
export * from './pending-kernel.ts';
