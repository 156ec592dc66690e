import { z } from 'zod';
import { byJobType, JOB_TYPE_DEFINITIONS, JOB_TYPES, type JobType } from './job-types/index.ts';

// Parameters and results of each job type, from the job-type table (job-types/): every kernel runs
// on `{}` with its type's defaults. The server refuses bad params at submit (400 naming the
// field); the agent checks them again before any work starts.

export {
  FIBONACCI_LIMITS,
  FREE_PARAMS_MAX_BYTES,
  MATRIX_LIMITS,
  PRIME_SIEVE_LIMITS,
  fibonacciParamsSchema,
  fibonacciResultSchema,
  matrixMultiplyParamsSchema,
  matrixMultiplyResultSchema,
  pendingKernelParamsSchema,
  primeSieveParamsSchema,
  primeSieveResultSchema,
  type FibonacciParams,
  type FibonacciResult,
  type MatrixMultiplyParams,
  type MatrixMultiplyResult,
  type PrimeSieveParams,
  type PrimeSieveResult,
} from './job-types/index.ts';

/** The params schema of every type. */
export const jobParamsSchemas = byJobType((definition) => definition.paramsSchema);

/** Job types whose result shape is known: some node can run them (they have a kernel). */
export const RUNNABLE_JOB_TYPES = JOB_TYPES.filter(
  (jobType) => 'resultSchema' in JOB_TYPE_DEFINITIONS[jobType],
);
export const NO_NODE_SUPPORTS_TYPE = 'no node supports this job type yet';

/** The result schema of every runnable type. */
export const jobResultSchemas: Partial<Record<JobType, z.ZodType<Record<string, unknown>>>> =
  Object.fromEntries(
    JOB_TYPES.flatMap((jobType) => {
      const definition = JOB_TYPE_DEFINITIONS[jobType];
      return 'resultSchema' in definition ? [[jobType, definition.resultSchema]] : [];
    }),
  );

/** Measured by the agent for every attempt. */
export const jobUsageSchema = z.object({
  wall_ms: z.number().int().nonnegative(),
  cpu_ms: z.number().int().nonnegative(),
  peak_memory_bytes: z.number().int().nonnegative(),
});
export type JobUsage = z.infer<typeof jobUsageSchema>;
