import { z } from 'zod';
import type { JobTypeDefinition } from './definition.ts';
import { finiteNumber, formatCount, hashHex, indexNumber, onlyKeys } from './shared.ts';

// matrix_multiply: C = A·B for dense float64 matrices.

export const MATRIX_LIMITS = {
  defaultSize: 256,
  maxSize: 2048,
  /** Inline matrices are sent in the job record, so they stay small. */
  maxInlineSize: 128,
  /** A full product is returned in the result only up to this many entries. */
  maxReturnedEntries: 64 * 64,
  defaultSeed: 1,
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

// ---- commit, challenge, open ----

/** Rows of a matrix product the agent must open (the server recomputes each from A and B). */
export const MATRIX_OPENED_ROWS = 4;

export const matrixMultiplyCommitmentSchema = z.strictObject({
  /** Merkle root (proofs/merkle.ts) over the rows of C, each leaf the row's float64 little-endian bytes. */
  merkle_root: hashHex('merkle_root'),
});
export const matrixMultiplyChallengeSchema = z.object({ rows: z.array(indexNumber('rows')) });
export const matrixMultiplyOpeningSchema = z.strictObject({
  rows: z
    .array(
      z.strictObject({
        index: indexNumber('index'),
        /** The row's float64 values, little-endian, base64: exact, -0 and all. */
        data: z
          .string({ error: 'data must be base64' })
          .max(24_000, 'data is longer than a row of 2048 numbers')
          .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'data must be base64'),
        path: z.array(hashHex('path entries')).max(32, 'path is longer than any tree here'),
      }),
    )
    .max(16, 'rows opens more rows than any challenge asks for'),
});

export type MatrixMultiplyCommitment = z.infer<typeof matrixMultiplyCommitmentSchema>;
export type MatrixMultiplyChallenge = z.infer<typeof matrixMultiplyChallengeSchema>;
export type MatrixMultiplyOpening = z.infer<typeof matrixMultiplyOpeningSchema>;

// ---- cost model ----

// One core of the reference machine: the 4×4-blocked float64 product runs at ≈ 2.5 GFLOP/s;
// generating and checking the matrices costs ≈ 10 ns an entry.
const MATRIX_FLOPS_PER_MS = 2.5e6;
const MATRIX_ENTRIES_PER_MS = 1e5;

function matrixReferenceMs(params: Record<string, unknown>): number {
  const a = params.a;
  const b = params.b;
  let rows: number;
  let inner: number;
  let cols: number;
  if (Array.isArray(a) && Array.isArray(b)) {
    rows = a.length;
    inner = Array.isArray(a[0]) ? (a[0] as unknown[]).length : 0;
    cols = Array.isArray(b[0]) ? (b[0] as unknown[]).length : 0;
  } else {
    const size = finiteNumber(params.size) ?? MATRIX_LIMITS.defaultSize;
    rows = finiteNumber(params.rows) ?? size;
    inner = finiteNumber(params.inner) ?? size;
    cols = finiteNumber(params.cols) ?? size;
  }
  const flops = 2 * rows * inner * cols;
  const entries = rows * inner + inner * cols + rows * cols;
  return flops / MATRIX_FLOPS_PER_MS + entries / MATRIX_ENTRIES_PER_MS;
}

export const matrixMultiplyJobType = {
  displayName: 'Matrix Multiply',
  paramsHint: `Optional: size (square, default ${MATRIX_LIMITS.defaultSize}, up to ${formatCount(MATRIX_LIMITS.maxSize)}), or rows, inner and cols; seed (default ${MATRIX_LIMITS.defaultSeed}); or inline matrices a and b (up to ${MATRIX_LIMITS.maxInlineSize}×${MATRIX_LIMITS.maxInlineSize}). Example: {"size": 512}`,
  paramsSchema: matrixMultiplyParamsSchema,
  resultSchema: matrixMultiplyResultSchema,
  proof: {
    commitment: matrixMultiplyCommitmentSchema,
    challenge: matrixMultiplyChallengeSchema,
    opening: matrixMultiplyOpeningSchema,
  },
  costModel: { referenceMs: matrixReferenceMs, isParallel: true },
} satisfies JobTypeDefinition;
