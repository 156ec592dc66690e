import { z } from 'zod';
import { safeJsonRecord } from './fields.ts';

// Parameters of each job type, with the bounds the agent and the server both enforce. Every kernel
// runs on `{}` with the defaults below. The server refuses bad params at submit (400 naming the
// field); the agent checks them again before any work starts.

export const MATRIX_LIMITS = {
  defaultSize: 256,
  maxSize: 2048,
  /** Inline matrices are sent in the job record, so they stay small. */
  maxInlineSize: 128,
  /** A full product is returned in the result only up to this many entries. */
  maxReturnedEntries: 64 * 64,
  defaultSeed: 1,
} as const;

/** Names the keys a type accepts when a params object has others. */
const onlyKeys = (message: string) => ({
  error: (issue: { code?: string }) => (issue.code === 'unrecognized_keys' ? message : undefined),
});

export const FIBONACCI_LIMITS = {
  defaultN: 1000,
  maxN: 10_000_000,
  maxInlineDigits: 1000,
} as const;

export const PRIME_SIEVE_LIMITS = {
  defaultLimit: 10_000_000,
  minLimit: 2,
  maxLimit: 100_000_000_000,
} as const;

const dimension = (label: string, max: number) =>
  z
    .number({ error: `${label} must be a whole number` })
    .int(`${label} must be a whole number`)
    .min(1, `${label} must be at least 1`)
    .max(max, `${label} must be at most ${max}`);

const inlineMatrix = (label: string) =>
  z
    .array(
      z
        .array(z.number({ error: `${label} entries must be finite numbers` }))
        .min(1, `${label} rows must not be empty`)
        .max(
          MATRIX_LIMITS.maxInlineSize,
          `${label} may have at most ${MATRIX_LIMITS.maxInlineSize} columns`,
        ),
      { error: `${label} must be an array of rows` },
    )
    .min(1, `${label} must have at least one row`)
    .max(
      MATRIX_LIMITS.maxInlineSize,
      `${label} may have at most ${MATRIX_LIMITS.maxInlineSize} rows`,
    )
    .refine(
      (rows) => rows.every((row) => row.length === rows[0]?.length),
      `${label} rows must all have the same length`,
    );

/**
 * C = A x B for dense float64 matrices. Either generated from `seed` (A is rows x inner, B is
 * inner x cols; `size` sets all three for square matrices) or given inline as `a` and `b`.
 */
export const matrixMultiplyParamsSchema = z
  .strictObject(
    {
      size: dimension('size', MATRIX_LIMITS.maxSize).optional(),
      rows: dimension('rows', MATRIX_LIMITS.maxSize).optional(),
      inner: dimension('inner', MATRIX_LIMITS.maxSize).optional(),
      cols: dimension('cols', MATRIX_LIMITS.maxSize).optional(),
      seed: z
        .number({ error: 'seed must be a whole number' })
        .int('seed must be a whole number')
        .min(0, 'seed must be at least 0')
        .max(2 ** 32 - 1, 'seed must be below 2^32')
        .optional(),
      a: inlineMatrix('a').optional(),
      b: inlineMatrix('b').optional(),
    },
    onlyKeys('matrix_multiply accepts only size, rows, inner, cols, seed, a and b'),
  )
  .superRefine((params, context) => {
    const hasInline = params.a !== undefined || params.b !== undefined;
    if (!hasInline) return;
    if (params.a === undefined || params.b === undefined) {
      context.addIssue({
        code: 'custom',
        path: [params.a === undefined ? 'a' : 'b'],
        message: 'Give both a and b, or neither',
      });
      return;
    }
    if (
      params.size !== undefined ||
      params.rows !== undefined ||
      params.inner !== undefined ||
      params.cols !== undefined ||
      params.seed !== undefined
    ) {
      context.addIssue({
        code: 'custom',
        path: ['a'],
        message: 'Inline matrices a and b exclude size, rows, inner, cols and seed',
      });
    }
    if (params.a[0]?.length !== params.b.length) {
      context.addIssue({
        code: 'custom',
        path: ['b'],
        message: `b must have as many rows (${params.b.length}) as a has columns (${params.a[0]?.length ?? 0})`,
      });
    }
  });
export type MatrixMultiplyParams = z.infer<typeof matrixMultiplyParamsSchema>;

export const fibonacciParamsSchema = z.strictObject(
  {
    n: z
      .number({ error: 'n must be a whole number' })
      .int('n must be a whole number')
      .min(0, 'n must be at least 0')
      .max(FIBONACCI_LIMITS.maxN, `n must be at most ${FIBONACCI_LIMITS.maxN}`)
      .optional(),
  },
  onlyKeys('fibonacci accepts only n'),
);
export type FibonacciParams = z.infer<typeof fibonacciParamsSchema>;

export const primeSieveParamsSchema = z.strictObject(
  {
    limit: z
      .number({ error: 'limit must be a whole number' })
      .int('limit must be a whole number')
      .min(PRIME_SIEVE_LIMITS.minLimit, `limit must be at least ${PRIME_SIEVE_LIMITS.minLimit}`)
      .max(PRIME_SIEVE_LIMITS.maxLimit, `limit must be at most ${PRIME_SIEVE_LIMITS.maxLimit}`)
      .optional(),
  },
  onlyKeys('prime_sieve accepts only limit'),
);
export type PrimeSieveParams = z.infer<typeof primeSieveParamsSchema>;

/** Params of a type without a fixed shape, as UTF-8 JSON: room for a long prompt, not for a data set. */
export const FREE_PARAMS_MAX_BYTES = 64 * 1024;

/**
 * The AI job types get their kernels in a later issue; until then any JSON object is accepted
 * (text PostgreSQL can store, at most FREE_PARAMS_MAX_BYTES) and the job waits. The other types'
 * params are bounded by their own schemas (inline matrices stay under the request size limit).
 */
export const pendingKernelParamsSchema = safeJsonRecord('params', {
  maxBytes: FREE_PARAMS_MAX_BYTES,
});

export const jobParamsSchemas = {
  matrix_multiply: matrixMultiplyParamsSchema,
  fibonacci: fibonacciParamsSchema,
  prime_sieve: primeSieveParamsSchema,
  neural_network_training: pendingKernelParamsSchema,
  transformer_inference: pendingKernelParamsSchema,
  llm_inference: pendingKernelParamsSchema,
} as const;

/** Job types some node can run today; the others stay queued with NO_NODE_SUPPORTS_TYPE as reason. */
export const RUNNABLE_JOB_TYPES = ['matrix_multiply', 'fibonacci', 'prime_sieve'] as const;
export const NO_NODE_SUPPORTS_TYPE = 'no node supports this job type yet';

// ---- results ----

export const matrixMultiplyResultSchema = z.object({
  rows: z.number().int(),
  inner: z.number().int(),
  cols: z.number().int(),
  /** Sum of all entries of C. */
  checksum: z.number(),
  /** C·r for the lease's challenge vector r (see challengeVector in @fabric/compute): the server checks it against A(B·r). */
  projection: z.array(z.number()),
  /** The agent's own Freivalds check of C against A and B. */
  freivalds: z.object({ rounds: z.number().int(), passed: z.boolean() }),
  /** The whole product, only when it has at most MATRIX_LIMITS.maxReturnedEntries entries. */
  c: z.array(z.array(z.number())).optional(),
});
export type MatrixMultiplyResult = z.infer<typeof matrixMultiplyResultSchema>;

export const fibonacciResultSchema = z.object({
  n: z.number().int(),
  digits: z.number().int(),
  /** The whole decimal value when it has at most FIBONACCI_LIMITS.maxInlineDigits digits. */
  value: z.string().optional(),
  head: z.string(),
  tail: z.string(),
  sha256: z.string(),
});
export type FibonacciResult = z.infer<typeof fibonacciResultSchema>;

export const primeSieveResultSchema = z.object({
  limit: z.number().int(),
  count: z.number().int(),
  largest: z.number().int().nullable(),
  first: z.array(z.number().int()),
});
export type PrimeSieveResult = z.infer<typeof primeSieveResultSchema>;

export const jobResultSchemas = {
  matrix_multiply: matrixMultiplyResultSchema,
  fibonacci: fibonacciResultSchema,
  prime_sieve: primeSieveResultSchema,
} as const;

/** Measured by the agent for every attempt. */
export const jobUsageSchema = z.object({
  wall_ms: z.number().int().nonnegative(),
  cpu_ms: z.number().int().nonnegative(),
  peak_memory_bytes: z.number().int().nonnegative(),
});
export type JobUsage = z.infer<typeof jobUsageSchema>;
