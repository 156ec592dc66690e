// prime_sieve's own checks of a result, before its proof (proof.ts).
import type { PrimeSieveResult } from '@fabric/contract';
import { PRIME_SIEVE_FIRST_COUNT } from '../../constants.ts';
import { KNOWN_PRIME_COUNTS, isPrime, primeCountBounds, primesUpTo } from '../../number-theory.ts';
import type { ResolvedPrimeSieveParams } from '../../params.ts';
import { fail, ok, type VerificationOutcome } from '../../verification.ts';

/** Up to this limit the verifier counts the primes itself. */
export const PRIME_SIEVE_EXACT_CHECK_MAX_LIMIT = 1_000_000;
/**
 * No gap between consecutive primes below 10^11 exceeds 464 (the maximal gap after 42 652 618 343,
 * table of maximal prime gaps, Nicely / Oliveira e Silva); a reported `largest` further below the
 * limit than this is wrong without testing the numbers between.
 */
export const PRIME_GAP_CEILING = 500;

export function verifyPrimeSieve(
  params: ResolvedPrimeSieveParams,
  result: PrimeSieveResult,
): VerificationOutcome {
  const { limit } = params;
  if (result.limit !== limit) {
    return fail(`result is for limit ${result.limit}, but the job asks for limit ${limit}`);
  }

  const expectedFirst = primesUpTo(Math.min(limit, 100)).slice(0, PRIME_SIEVE_FIRST_COUNT);
  if (
    result.first.length !== expectedFirst.length ||
    result.first.some((prime, index) => prime !== expectedFirst[index])
  ) {
    return fail(
      `first must list the primes ${expectedFirst.join(', ')}; the result lists ${result.first.join(', ') || 'none'}`,
    );
  }

  const { largest } = result;
  if (largest === null) return fail(`largest is missing: there are primes up to ${limit}`);
  if (largest > limit) return fail(`largest (${largest}) exceeds the limit ${limit}`);
  if (!isPrime(largest)) return fail(`largest (${largest}) is not prime`);
  if (limit - largest > PRIME_GAP_CEILING) {
    return fail(
      `largest (${largest}) lies ${limit - largest} below the limit; no prime gap this size exists below 10^11`,
    );
  }
  for (let candidate = largest + 1; candidate <= limit; candidate++) {
    if (isPrime(candidate)) {
      return fail(
        `largest (${largest}) is not the largest prime up to ${limit}: ${candidate} is prime`,
      );
    }
  }

  if (limit <= PRIME_SIEVE_EXACT_CHECK_MAX_LIMIT) {
    const exact = primesUpTo(limit).length;
    if (result.count !== exact) {
      return fail(`count is ${result.count}, but there are ${exact} primes up to ${limit}`);
    }
    return ok;
  }
  const known = KNOWN_PRIME_COUNTS.get(limit);
  if (known !== undefined) {
    if (result.count !== known) {
      return fail(`count is ${result.count}, but there are ${known} primes up to ${limit}`);
    }
    return ok;
  }
  const bounds = primeCountBounds(limit);
  if (result.count < bounds.lower || result.count > bounds.upper) {
    return fail(
      `count ${result.count} is impossible: the number of primes up to ${limit} lies between ${bounds.lower} and ${bounds.upper}`,
    );
  }
  return ok;
}
