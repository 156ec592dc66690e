import { PRIME_SIEVE_LIMITS, primeSieveParamsSchema } from '@fabric/contract';
import { describe, expect, it } from 'vitest';
import { isPrime } from '../../number-theory.ts';
import { parsePrimeSieveParams, resolvePrimeSieveParams } from '../../params.ts';
import { verifyResult } from '../../verify.ts';
import { KernelAbortedError } from '../../kernels/hooks.ts';
import {
  SEGMENT_SPAN,
  basePrimesFor,
  combinePrimeCounts,
  runPrimeSieve,
  sievePrimeCountRange,
  splitPrimeSieveRange,
} from './kernel.ts';

/** Primes in [lo, hi) by trial division: slow, obvious, no shared code with the sieve. */
function slowPrimesBetween(lo: number, hi: number): number[] {
  const primes: number[] = [];
  for (let candidate = Math.max(2, lo); candidate < hi; candidate++) {
    let isComposite = false;
    for (let divisor = 2; divisor * divisor <= candidate; divisor++) {
      if (candidate % divisor === 0) {
        isComposite = true;
        break;
      }
    }
    if (!isComposite) primes.push(candidate);
  }
  return primes;
}

const FIRST_TEN = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29];

describe('runPrimeSieve', () => {
  it('handles limit 2 and 3', () => {
    expect(runPrimeSieve({ limit: 2 })).toEqual({ limit: 2, count: 1, largest: 2, first: [2] });
    expect(runPrimeSieve({ limit: 3 })).toEqual({ limit: 3, count: 2, largest: 3, first: [2, 3] });
  });

  it('agrees with trial division for every limit up to 1500', () => {
    const primes = slowPrimesBetween(0, 1501);
    for (let limit = 2; limit <= 1500; limit++) {
      const upTo = primes.filter((prime) => prime <= limit);
      expect(runPrimeSieve({ limit })).toEqual({
        limit,
        count: upTo.length,
        largest: upTo.at(-1),
        first: upTo.slice(0, 10),
      });
    }
  });

  it('finds the known values of π(x) up to 10^9, and each result verifies', () => {
    for (const [limit, count, largest] of [
      [10, 4, 7],
      [100, 25, 97],
      [1_000_000, 78_498, 999_983],
      [10_000_000, 664_579, 9_999_991],
      [100_000_000, 5_761_455, 99_999_989],
      [1_000_000_000, 50_847_534, 999_999_937],
    ] as const) {
      const result = runPrimeSieve({ limit });
      expect(result).toEqual({ limit, count, largest, first: FIRST_TEN.slice(0, count) });
      expect(verifyResult('prime_sieve', { limit }, result, 0)).toEqual({ ok: true });
    }
  });

  it('runs the default limit of 10^7', () => {
    expect(resolvePrimeSieveParams({})).toEqual({ limit: PRIME_SIEVE_LIMITS.defaultLimit });
    expect(runPrimeSieve(resolvePrimeSieveParams({})).count).toBe(664_579);
  });

  it('accepts limits from 2 to 10^11 in the schema and refuses 10^11 + 1', () => {
    expect(parsePrimeSieveParams({ limit: 1e11 })).toEqual({ limit: 1e11 });
    expect(primeSieveParamsSchema.safeParse({ limit: 1e11 + 1 }).success).toBe(false);
    expect(primeSieveParamsSchema.safeParse({ limit: 1 }).success).toBe(false);
  });

  it('reports increasing progress up to 1 and stops when asked', () => {
    const fractions: number[] = [];
    runPrimeSieve({ limit: 50_000_000 }, { onProgress: (fraction) => fractions.push(fraction) });
    expect(fractions.length).toBeGreaterThanOrEqual(5);
    expect(fractions.at(-1)).toBe(1);
    expect(
      fractions.every((fraction, index) => index === 0 || fraction > (fractions[index - 1] ?? 0)),
    ).toBe(true);
    let polls = 0;
    expect(() => runPrimeSieve({ limit: 50_000_000 }, { shouldStop: () => ++polls > 2 })).toThrow(
      KernelAbortedError,
    );
    expect(polls).toBe(3);
  });
});

describe('sievePrimeCountRange and combinePrimeCounts', () => {
  it('counts arbitrary ranges, including ones that straddle a segment boundary', () => {
    const basePrimes = basePrimesFor(3 * SEGMENT_SPAN);
    for (const [lo, hi] of [
      [0, 0],
      [0, 3],
      [1000, 2000],
      [1001, 1999],
      [SEGMENT_SPAN - 301, SEGMENT_SPAN + 300],
      [2 * SEGMENT_SPAN + 2, 2 * SEGMENT_SPAN + 700],
    ] as const) {
      const primes = slowPrimesBetween(lo, hi);
      expect(sievePrimeCountRange(lo, hi, basePrimes)).toEqual({
        lo,
        hi,
        count: primes.length,
        largest: primes.at(-1) ?? null,
        first: primes.slice(0, 10),
      });
    }
  });

  it('merges split ranges into the single-thread answer', () => {
    const limit = 3 * SEGMENT_SPAN + 12_345;
    const basePrimes = basePrimesFor(limit);
    const whole = runPrimeSieve({ limit });
    for (const parts of [1, 2, 3, 7]) {
      const ranges = splitPrimeSieveRange(limit, parts);
      expect(ranges[0]?.[0]).toBe(0);
      expect(ranges.at(-1)?.[1]).toBe(limit + 1);
      ranges.slice(1).forEach(([start], index) => expect(start).toBe(ranges[index]?.[1]));
      const counts = ranges.reverse().map(([lo, hi]) => sievePrimeCountRange(lo, hi, basePrimes));
      expect({ limit, ...combinePrimeCounts(counts) }).toEqual(whole);
    }
    expect(splitPrimeSieveRange(10, 4)).toEqual([[0, 11]]);
  });

  it('refuses base primes that do not reach √(hi − 1)', () => {
    expect(() => sievePrimeCountRange(0, 1_000_000, basePrimesFor(1000))).toThrow(RangeError);
    expect(() => sievePrimeCountRange(0, 122, basePrimesFor(120))).toThrow(RangeError);
    expect(sievePrimeCountRange(0, 121, basePrimesFor(120)).count).toBe(30);
    expect(sievePrimeCountRange(0, 122, basePrimesFor(121)).largest).toBe(113);
    expect(isPrime(113)).toBe(true);
  });
});
