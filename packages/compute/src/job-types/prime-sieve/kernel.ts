// π(limit) by a segmented sieve of Eratosthenes over odd numbers. Each segment is a bitset of
// SEGMENT_BITS odd numbers (256 KiB, inside this machine's 2 MiB per-core L2): bit i stands for
// segmentStart + 2i and is set when that number is composite. The multiples of every base prime p
// (p ≤ √limit) are struck from max(p², first odd multiple in the segment) in steps of 2p, and the
// primes of the segment are its clear bits, counted 32 at a time with a popcount.
//
// Segments depend only on their own bounds and the base primes, never on a previous segment, so
// any [lo, hi) can be sieved on its own: the agent splits [0, limit + 1) with splitPrimeSieveRange,
// runs sievePrimeCountRange for each piece in a worker thread and merges with combinePrimeCounts.
import { PRIME_SIEVE_CHECK_SPAN, type PrimeSieveResult } from '@fabric/contract';
import { PRIME_SIEVE_FIRST_COUNT } from '../../constants.ts';
import type { ResolvedPrimeSieveParams } from '../../params.ts';
import { ProgressTracker, type KernelHooks } from '../../kernels/hooks.ts';

/** Odd numbers per segment: 2^21 bits = 256 KiB. */
export const SEGMENT_BITS = 2 ** 21;
const SEGMENT_WORDS = SEGMENT_BITS / 32;
/** Numbers spanned by one segment. */
export const SEGMENT_SPAN = 2 * SEGMENT_BITS;

/** The primes needed to sieve any range below `upTo`² + 1 (every prime ≤ upTo, in order). */
export interface BasePrimes {
  upTo: number;
  primes: Uint32Array;
}

/** What one range [lo, hi) holds: its number of primes, the largest, and its smallest few. */
export interface PrimeRangeCount {
  lo: number;
  hi: number;
  count: number;
  largest: number | null;
  /** The smallest PRIME_SIEVE_FIRST_COUNT primes of the range (fewer if it holds fewer). */
  first: number[];
}

/** The base primes for sieving up to `limit` (every prime ≤ ⌊√limit⌋), by a plain byte sieve. */
export function basePrimesFor(limit: number): BasePrimes {
  const upTo = Math.floor(Math.sqrt(limit));
  const isComposite = new Uint8Array(upTo + 1);
  const primes: number[] = [];
  for (let candidate = 2; candidate <= upTo; candidate++) {
    if (isComposite[candidate] === 1) continue;
    primes.push(candidate);
    for (let multiple = candidate * candidate; multiple <= upTo; multiple += candidate) {
      isComposite[multiple] = 1;
    }
  }
  return { upTo, primes: Uint32Array.from(primes) };
}

/** Primes whose multiples are copied from a repeating pattern instead of struck one by one. */
const PATTERN_PRIMES = [3, 5, 7, 11, 13];
/** The pattern repeats every 3·5·7·11·13 odd numbers, and so every that many 32-bit words. */
const PATTERN_PERIOD_WORDS = 3 * 5 * 7 * 11 * 13;
const PATTERN_PERIOD_BITS = 32 * PATTERN_PERIOD_WORDS;
/** Index of 17 in the base primes (2, 3, 5, 7, 11, 13, 17, …). */
const FIRST_UNPATTERNED_PRIME_INDEX = 6;

/**
 * Bit g is set when the odd number 2g + 1 is a multiple of 3, 5, 7, 11 or 13, for g from 0 to one
 * period plus a segment: any segment's pre-sieved words are a (bit-shifted) slice of it.
 */
function buildPattern(): Uint32Array {
  const pattern = new Uint32Array(PATTERN_PERIOD_WORDS + SEGMENT_WORDS + 1);
  const bits = pattern.length * 32;
  for (const prime of PATTERN_PRIMES) {
    // 2g + 1 ≡ 0 (mod p) ⟺ g ≡ (p − 1)/2 (mod p)
    for (let bit = (prime - 1) / 2; bit < bits; bit += prime) {
      pattern[bit >>> 5] = (pattern[bit >>> 5] as number) | (1 << (bit & 31));
    }
  }
  return pattern;
}

let cachedPattern: Uint32Array | undefined;

/** Fills words[0..wordCount) with the pattern for the odd numbers from 2·firstIndex + 1 on. */
function preSieve(words: Uint32Array, wordCount: number, firstIndex: number): void {
  cachedPattern ??= buildPattern();
  const pattern = cachedPattern;
  const offset = firstIndex % PATTERN_PERIOD_BITS;
  const start = offset >>> 5;
  const shift = offset & 31;
  if (shift === 0) {
    words.set(pattern.subarray(start, start + wordCount));
    return;
  }
  for (let word = 0; word < wordCount; word++) {
    words[word] =
      ((pattern[start + word] as number) >>> shift) |
      ((pattern[start + word + 1] as number) << (32 - shift));
  }
}

function popcount(word: number): number {
  let value = word - ((word >>> 1) & 0x55555555);
  value = (value & 0x33333333) + ((value >>> 2) & 0x33333333);
  return Math.imul((value + (value >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/**
 * Counts the primes p with lo ≤ p < hi. `basePrimes` must hold every prime up to √(hi − 1)
 * (basePrimesFor(limit) for any limit ≥ hi − 1). Progress is the fraction of this range;
 * shouldStop is polled once per segment (about 4 million numbers).
 */
export function sievePrimeCountRange(
  lo: number,
  hi: number,
  basePrimes: BasePrimes,
  hooks: KernelHooks = {},
): PrimeRangeCount {
  if (!Number.isSafeInteger(lo) || !Number.isSafeInteger(hi) || lo < 0 || hi < lo) {
    throw new RangeError(`[${lo}, ${hi}) is not a range of non-negative integers`);
  }
  if ((basePrimes.upTo + 1) * (basePrimes.upTo + 1) <= hi - 1) {
    const needed = Math.floor(Math.sqrt(hi - 1));
    throw new RangeError(
      `base primes up to ${basePrimes.upTo} cannot sieve below ${hi}: need ${needed}`,
    );
  }
  const progress = new ProgressTracker(hooks);
  const result: PrimeRangeCount = { lo, hi, count: 0, largest: null, first: [] };
  if (lo <= 2 && hi > 2) {
    result.count = 1;
    result.largest = 2;
    result.first.push(2);
  }
  const words = new Uint32Array(SEGMENT_WORDS);
  const primes = basePrimes.primes;
  // The first odd number ≥ max(lo, 3): segments start on odd numbers.
  let segmentStart = Math.max(lo, 3);
  if (segmentStart % 2 === 0) segmentStart++;
  const total = hi - lo;

  while (segmentStart < hi) {
    progress.checkStop();
    const bitCount = Math.min(SEGMENT_BITS, Math.ceil((hi - segmentStart) / 2));
    const segmentEnd = segmentStart + 2 * bitCount; // exclusive; every odd number below hi is covered
    const wordCount = Math.ceil(bitCount / 32);
    preSieve(words, wordCount, (segmentStart - 1) / 2);
    // The pattern struck 3, 5, 7, 11 and 13 themselves.
    for (const prime of PATTERN_PRIMES) {
      if (prime >= segmentStart && prime < segmentEnd) {
        const bit = (prime - segmentStart) / 2;
        words[bit >>> 5] = (words[bit >>> 5] as number) & ~(1 << (bit & 31));
      }
    }

    // Strike odd multiples of each larger base prime p, from p² on.
    for (let index = FIRST_UNPATTERNED_PRIME_INDEX; index < primes.length; index++) {
      const prime = primes[index] as number;
      const square = prime * prime;
      if (square >= segmentEnd) break;
      let multiple: number;
      if (square >= segmentStart) {
        multiple = square;
      } else {
        const remainder = segmentStart % prime;
        multiple = remainder === 0 ? segmentStart : segmentStart + prime - remainder;
        if (multiple % 2 === 0) multiple += prime;
      }
      for (let bit = (multiple - segmentStart) / 2; bit < bitCount; bit += prime) {
        words[bit >>> 5] = (words[bit >>> 5] as number) | (1 << (bit & 31));
      }
    }
    // Bits past the end of the range, in the last word, count as composite.
    const spare = wordCount * 32 - bitCount;
    if (spare > 0) {
      const last = wordCount - 1;
      words[last] = (words[last] as number) | ~(0xffffffff >>> spare);
    }

    let composites = 0;
    for (let word = 0; word < wordCount; word++) composites += popcount(words[word] as number);
    const found = wordCount * 32 - composites;
    if (found > 0) {
      result.count += found;
      for (let bit = bitCount - 1; bit >= 0; bit--) {
        if (((words[bit >>> 5] as number) & (1 << (bit & 31))) === 0) {
          result.largest = segmentStart + 2 * bit;
          break;
        }
      }
      for (let bit = 0; bit < bitCount && result.first.length < PRIME_SIEVE_FIRST_COUNT; bit++) {
        if (((words[bit >>> 5] as number) & (1 << (bit & 31))) === 0) {
          result.first.push(segmentStart + 2 * bit);
        }
      }
    }
    segmentStart = segmentEnd;
    progress.report(total === 0 ? 1 : (Math.min(segmentEnd, hi) - lo) / total);
  }
  progress.report(1);
  return result;
}

/**
 * Splits [0, limit + 1) into at most `parts` contiguous ranges of whole check spans
 * (PRIME_SIEVE_CHECK_SPAN; the last may be shorter), in ascending order, for countPrimesBySpan in
 * parallel: each span's count is part of the proof (job-proofs.ts).
 */
export function splitPrimeSieveRange(limit: number, parts: number): [number, number][] {
  const end = limit + 1;
  const spans = Math.max(1, Math.ceil(end / PRIME_SIEVE_CHECK_SPAN));
  const pieces = Math.max(1, Math.min(Math.floor(parts), spans));
  const ranges: [number, number][] = [];
  let start = 0;
  for (let piece = 0; piece < pieces; piece++) {
    const spansBefore = Math.round(((piece + 1) * spans) / pieces);
    const stop = piece === pieces - 1 ? end : Math.min(end, spansBefore * PRIME_SIEVE_CHECK_SPAN);
    if (stop > start) ranges.push([start, stop]);
    start = stop;
  }
  return ranges;
}

/** A range's count with the count of each check span in it (the sieve's commitment). */
export interface PrimeSpanCounts extends PrimeRangeCount {
  /** Index of the range's first check span: lo / PRIME_SIEVE_CHECK_SPAN. */
  firstSpan: number;
  spanCounts: number[];
}

/**
 * Counts the primes of [lo, hi) span by span (lo a multiple of PRIME_SIEVE_CHECK_SPAN): the same
 * work as sievePrimeCountRange, with the count of every span kept for the commitment.
 */
export function countPrimesBySpan(
  lo: number,
  hi: number,
  basePrimes: BasePrimes,
  hooks: KernelHooks = {},
): PrimeSpanCounts {
  if (lo % PRIME_SIEVE_CHECK_SPAN !== 0) {
    throw new RangeError(`${lo} is not a multiple of the check span ${PRIME_SIEVE_CHECK_SPAN}`);
  }
  const parts: PrimeRangeCount[] = [];
  const spanCounts: number[] = [];
  const total = hi - lo;
  for (let spanLo = lo; spanLo < hi; spanLo += PRIME_SIEVE_CHECK_SPAN) {
    const spanHi = Math.min(hi, spanLo + PRIME_SIEVE_CHECK_SPAN);
    const done = spanLo - lo;
    const part = sievePrimeCountRange(spanLo, spanHi, basePrimes, {
      shouldStop: () => hooks.shouldStop?.() === true,
      onProgress: (fraction) => hooks.onProgress?.((done + fraction * (spanHi - spanLo)) / total),
    });
    parts.push(part);
    spanCounts.push(part.count);
  }
  return {
    lo,
    hi,
    ...combinePrimeCounts(parts),
    firstSpan: lo / PRIME_SIEVE_CHECK_SPAN,
    spanCounts,
  };
}

/** Merges the counts of disjoint ranges (in any order) into one: total count, largest, smallest primes. */
export function combinePrimeCounts(
  parts: readonly PrimeRangeCount[],
): Pick<PrimeRangeCount, 'count' | 'largest' | 'first'> {
  let count = 0;
  let largest: number | null = null;
  const first: number[] = [];
  for (const part of parts) {
    count += part.count;
    if (part.largest !== null && (largest === null || part.largest > largest))
      largest = part.largest;
    first.push(...part.first);
  }
  first.sort((left, right) => left - right);
  return { count, largest, first: first.slice(0, PRIME_SIEVE_FIRST_COUNT) };
}

/** The whole job on one thread: π(limit), the largest prime ≤ limit, the first primes and the span counts. */
export function countPrimesWithSpans(
  params: ResolvedPrimeSieveParams,
  hooks: KernelHooks = {},
): { result: PrimeSieveResult; spanCounts: number[] } {
  const { limit } = params;
  const range = countPrimesBySpan(0, limit + 1, basePrimesFor(limit), hooks);
  return {
    result: { limit, count: range.count, largest: range.largest, first: range.first },
    spanCounts: range.spanCounts,
  };
}

/** The whole job on one thread: π(limit), the largest prime ≤ limit and the first primes. */
export function runPrimeSieve(
  params: ResolvedPrimeSieveParams,
  hooks: KernelHooks = {},
): PrimeSieveResult {
  return countPrimesWithSpans(params, hooks).result;
}
