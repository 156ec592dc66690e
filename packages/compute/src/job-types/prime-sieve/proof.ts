// prime_sieve: the agent commits to the prime count of every span of PRIME_SIEVE_CHECK_SPAN
// numbers; the server picks PRIME_SIEVE_CHECKED_SEGMENTS spans at random and sieves them itself
// (about 15 ms each). The counts must add up to the reported total, so a guessed total needs
// guessed spans, and every guessed span is a chance of being caught: an agent that sieved only a
// share 1 − f of the range passes with probability (1 − f)^3 at most.
import {
  PRIME_SIEVE_CHECK_SPAN,
  PRIME_SIEVE_CHECKED_SEGMENTS,
  type PrimeSieveChallenge,
  type PrimeSieveCommitment,
  type PrimeSieveResult,
} from '@fabric/contract';
import type { VerificationOutcome } from '../../verification.ts';
import { basePrimesFor, sievePrimeCountRange } from './kernel.ts';
import type { ResolvedPrimeSieveParams } from '../../params.ts';
import { distinctRandomIndices, type RandomInt } from '../../proofs/random-choice.ts';

export function primeSieveSpanCount(limit: number): number {
  return Math.ceil((limit + 1) / PRIME_SIEVE_CHECK_SPAN);
}

export function drawPrimeSieveChallenge(
  params: ResolvedPrimeSieveParams,
  randomInt: RandomInt,
): PrimeSieveChallenge {
  return {
    segments: distinctRandomIndices(
      primeSieveSpanCount(params.limit),
      PRIME_SIEVE_CHECKED_SEGMENTS,
      randomInt,
    ),
  };
}

const fail = (reason: string): VerificationOutcome => ({ ok: false, reason });

export function verifyPrimeSieveCommitment(
  params: ResolvedPrimeSieveParams,
  result: PrimeSieveResult,
  commitment: PrimeSieveCommitment,
  challenge: PrimeSieveChallenge,
): VerificationOutcome {
  const { limit } = params;
  const counts = commitment.segment_counts;
  const expectedSpans = primeSieveSpanCount(limit);
  if (counts.length !== expectedSpans) {
    return fail(`segment_counts has ${counts.length} entries, expected ${expectedSpans}`);
  }
  const total = counts.reduce((sum, count) => sum + count, 0);
  if (total !== result.count) {
    return fail(`segment_counts add up to ${total}, not to the reported count ${result.count}`);
  }
  const basePrimes = basePrimesFor(limit);
  for (const segment of challenge.segments) {
    const lo = segment * PRIME_SIEVE_CHECK_SPAN;
    const hi = Math.min(lo + PRIME_SIEVE_CHECK_SPAN, limit + 1);
    const actual = sievePrimeCountRange(lo, hi, basePrimes).count;
    if (counts[segment] !== actual) {
      return fail(
        `segment ${segment} ([${lo}, ${hi})) holds ${actual} primes, the commitment says ${counts[segment] ?? 'nothing'}`,
      );
    }
  }
  return { ok: true };
}
