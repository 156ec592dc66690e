import { z } from 'zod';
import type { JobTypeDefinition } from './definition.ts';
import { finiteNumber, formatCount, indexNumber, onlyKeys } from './shared.ts';

// prime_sieve: π(limit), the largest prime up to the limit and the first primes.

export const PRIME_SIEVE_LIMITS = {
  defaultLimit: 10_000_000,
  minLimit: 2,
  maxLimit: 100_000_000_000,
} as const;

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

export const primeSieveResultSchema = z.object({
  limit: z.number().int(),
  count: z.number().int(),
  largest: z.number().int().nullable(),
  first: z.array(z.number().int()),
});
export type PrimeSieveResult = z.infer<typeof primeSieveResultSchema>;

// ---- commit, challenge, open ----

/** The sieve's commitment counts the primes of every segment this long; the server re-sieves a few. */
export const PRIME_SIEVE_CHECK_SPAN = 2 ** 24;
export const PRIME_SIEVE_CHECKED_SEGMENTS = 3;

/** Segments of PRIME_SIEVE_CHECK_SPAN in [0, 10^11 + 1). */
const PRIME_SIEVE_MAX_SEGMENTS = Math.ceil((100_000_000_000 + 1) / PRIME_SIEVE_CHECK_SPAN);
export const primeSieveCommitmentSchema = z.strictObject({
  /** Entry j: the number of primes p with j·SPAN ≤ p < min((j + 1)·SPAN, limit + 1). */
  segment_counts: z
    .array(indexNumber('segment_counts entries'))
    .max(
      PRIME_SIEVE_MAX_SEGMENTS,
      `segment_counts has at most ${PRIME_SIEVE_MAX_SEGMENTS} entries`,
    ),
});
export const primeSieveChallengeSchema = z.object({ segments: z.array(indexNumber('segments')) });
/** The server re-sieves the chosen segments itself: nothing to open. */
export const primeSieveOpeningSchema = z.strictObject({});

export type PrimeSieveCommitment = z.infer<typeof primeSieveCommitmentSchema>;
export type PrimeSieveChallenge = z.infer<typeof primeSieveChallengeSchema>;

// ---- cost model ----

/** The segmented sieve crosses off ≈ 1.25 numbers a nanosecond on one reference core. */
const SIEVE_NUMBERS_PER_MS = 1.25e6;

function primeSieveReferenceMs(params: Record<string, unknown>): number {
  const limit = finiteNumber(params.limit) ?? PRIME_SIEVE_LIMITS.defaultLimit;
  return limit / SIEVE_NUMBERS_PER_MS;
}

export const primeSieveJobType = {
  displayName: 'Prime Sieve',
  paramsHint: `Optional: limit (default ${formatCount(PRIME_SIEVE_LIMITS.defaultLimit)}, from ${PRIME_SIEVE_LIMITS.minLimit} up to ${formatCount(PRIME_SIEVE_LIMITS.maxLimit)}). Example: {"limit": 1000000}`,
  paramsSchema: primeSieveParamsSchema,
  resultSchema: primeSieveResultSchema,
  proof: {
    commitment: primeSieveCommitmentSchema,
    challenge: primeSieveChallengeSchema,
    opening: primeSieveOpeningSchema,
  },
  costModel: { referenceMs: primeSieveReferenceMs, isParallel: true },
} satisfies JobTypeDefinition;
