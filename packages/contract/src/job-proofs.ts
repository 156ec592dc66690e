import { z } from 'zod';

// Commit, challenge, open: how an agent proves it did the work. With its result the agent sends a
// commitment it cannot change afterwards (a Merkle root over the rows of C, the prime count of
// every segment); only then does the server draw a random challenge (which rows, which segments)
// and the agent opens what was chosen, which the server recomputes at a small fraction of the job's
// cost. An agent that skipped a share f of the work is caught with probability at least f, and a
// refused result earns nothing, so guessing never pays. The shapes per type live here; the
// checks in @fabric/compute (proofs/).

/** Rows of a matrix product the agent must open (the server recomputes each from A and B). */
export const MATRIX_OPENED_ROWS = 4;
/** The sieve's commitment counts the primes of every segment this long; the server re-sieves a few. */
export const PRIME_SIEVE_CHECK_SPAN = 2 ** 24;
export const PRIME_SIEVE_CHECKED_SEGMENTS = 3;
/** Above this n the server cannot afford F(n) itself, so the agent opens the whole decimal value. */
export const FIBONACCI_OPEN_VALUE_ABOVE_N = 100_000;
/** F(10^7), the largest n accepted, has 2,089,877 digits. */
export const FIBONACCI_MAX_DIGITS = 2_100_000;

const hashHex = (label: string) =>
  z
    .string({ error: `${label} must be a sha256 in hex` })
    .regex(/^[0-9a-f]{64}$/, `${label} must be 64 lowercase hexadecimal digits`);
const index = (label: string) =>
  z
    .number({ error: `${label} must be a whole number` })
    .int(`${label} must be a whole number`)
    .min(0, `${label} must be at least 0`);

// ---- matrix_multiply ----

export const matrixMultiplyCommitmentSchema = z.strictObject({
  /** Merkle root (proofs/merkle.ts) over the rows of C, each leaf the row's float64 little-endian bytes. */
  merkle_root: hashHex('merkle_root'),
});
export const matrixMultiplyChallengeSchema = z.object({ rows: z.array(index('rows')) });
export const matrixMultiplyOpeningSchema = z.strictObject({
  rows: z
    .array(
      z.strictObject({
        index: index('index'),
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

// ---- prime_sieve ----

/** Segments of PRIME_SIEVE_CHECK_SPAN in [0, 10^11 + 1). */
const PRIME_SIEVE_MAX_SEGMENTS = Math.ceil((100_000_000_000 + 1) / PRIME_SIEVE_CHECK_SPAN);
export const primeSieveCommitmentSchema = z.strictObject({
  /** Entry j: the number of primes p with j·SPAN ≤ p < min((j + 1)·SPAN, limit + 1). */
  segment_counts: z
    .array(index('segment_counts entries'))
    .max(
      PRIME_SIEVE_MAX_SEGMENTS,
      `segment_counts has at most ${PRIME_SIEVE_MAX_SEGMENTS} entries`,
    ),
});
export const primeSieveChallengeSchema = z.object({ segments: z.array(index('segments')) });
/** The server re-sieves the chosen segments itself: nothing to open. */
export const primeSieveOpeningSchema = z.strictObject({});

// ---- fibonacci ----

/** The result's sha256 of the decimal value already binds it. */
export const fibonacciCommitmentSchema = z.strictObject({});
export const fibonacciChallengeSchema = z.object({ open_value: z.boolean() });
export const fibonacciOpeningSchema = z.strictObject({
  /** F(n) in decimal, when the challenge asks for it; checked modulo a prime drawn afterwards. */
  value: z
    .string({ error: 'value must be a string of decimal digits' })
    .max(FIBONACCI_MAX_DIGITS, `value has at most ${FIBONACCI_MAX_DIGITS} digits`)
    .regex(/^[0-9]+$/, 'value must be a string of decimal digits')
    .optional(),
});

export const jobProofSchemas = {
  matrix_multiply: {
    commitment: matrixMultiplyCommitmentSchema,
    challenge: matrixMultiplyChallengeSchema,
    opening: matrixMultiplyOpeningSchema,
  },
  prime_sieve: {
    commitment: primeSieveCommitmentSchema,
    challenge: primeSieveChallengeSchema,
    opening: primeSieveOpeningSchema,
  },
  fibonacci: {
    commitment: fibonacciCommitmentSchema,
    challenge: fibonacciChallengeSchema,
    opening: fibonacciOpeningSchema,
  },
} as const;

export type MatrixMultiplyCommitment = z.infer<typeof matrixMultiplyCommitmentSchema>;
export type MatrixMultiplyChallenge = z.infer<typeof matrixMultiplyChallengeSchema>;
export type MatrixMultiplyOpening = z.infer<typeof matrixMultiplyOpeningSchema>;
export type PrimeSieveCommitment = z.infer<typeof primeSieveCommitmentSchema>;
export type PrimeSieveChallenge = z.infer<typeof primeSieveChallengeSchema>;
export type FibonacciChallenge = z.infer<typeof fibonacciChallengeSchema>;
export type FibonacciOpening = z.infer<typeof fibonacciOpeningSchema>;
