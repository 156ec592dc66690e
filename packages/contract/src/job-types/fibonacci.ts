import { z } from 'zod';
import type { JobTypeDefinition } from './definition.ts';
import { finiteNumber, formatCount, onlyKeys } from './shared.ts';

// fibonacci: F(n) exactly, with its digit count, edges and sha256.

export const FIBONACCI_LIMITS = {
  defaultN: 1000,
  maxN: 10_000_000,
  maxInlineDigits: 1000,
} as const;

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

// ---- commit, challenge, open ----

/** Above this n the server cannot afford F(n) itself, so the agent opens the whole decimal value. */
export const FIBONACCI_OPEN_VALUE_ABOVE_N = 100_000;
/** F(10^7), the largest n accepted, has 2,089,877 digits. */
export const FIBONACCI_MAX_DIGITS = 2_100_000;

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

export type FibonacciChallenge = z.infer<typeof fibonacciChallengeSchema>;
export type FibonacciOpening = z.infer<typeof fibonacciOpeningSchema>;

// ---- cost model ----

// Fast doubling plus decimal digits took 1.2 s for F(10^7) on one reference core and grows as
// n^1.4 (BigInt multiplication and toString).
const FIBONACCI_REFERENCE = { n: 1e7, ms: 1200, exponent: 1.4 } as const;

function fibonacciReferenceMs(params: Record<string, unknown>): number {
  const n = finiteNumber(params.n) ?? FIBONACCI_LIMITS.defaultN;
  return FIBONACCI_REFERENCE.ms * (n / FIBONACCI_REFERENCE.n) ** FIBONACCI_REFERENCE.exponent;
}

export const fibonacciJobType = {
  displayName: 'Fibonacci',
  paramsHint: `Optional: n (default ${formatCount(FIBONACCI_LIMITS.defaultN)}, up to ${formatCount(FIBONACCI_LIMITS.maxN)}). Example: {"n": 5000}`,
  paramsSchema: fibonacciParamsSchema,
  resultSchema: fibonacciResultSchema,
  proof: {
    commitment: fibonacciCommitmentSchema,
    challenge: fibonacciChallengeSchema,
    opening: fibonacciOpeningSchema,
  },
  costModel: { referenceMs: fibonacciReferenceMs, isParallel: false },
} satisfies JobTypeDefinition;
