// Cheating agents, for tests only (@fabric/compute/testing): results that cost almost nothing to
// make and pass every check a verifier without commit and challenge could afford. Each comes with
// the commitment and witness such an agent would send, so tests can watch the proof refuse it.
import { createHash } from 'node:crypto';
import type { FibonacciResult, MatrixMultiplyResult, PrimeSieveResult } from '@fabric/contract';
import { FIBONACCI_EDGE_DIGITS, PRIME_SIEVE_FIRST_COUNT } from '../constants.ts';
import {
  fibonacciLeadingDigits,
  fibonacciModulo,
  isPrime,
  primeCountBounds,
  primesUpTo,
} from '../number-theory.ts';
import {
  forEachMatrixRow,
  parseFibonacciParams,
  parseMatrixParams,
  parsePrimeSieveParams,
} from '../params.ts';
import type { ProofWitness } from '../proofs/index.ts';
import { commitMatrixProduct } from '../job-types/matrix-multiply/proof.ts';
import { primeSieveSpanCount } from '../job-types/prime-sieve/proof.ts';
import { challengeVector } from '../random.ts';

export interface CheatOutput {
  /** What the cheat does instead of the job. */
  how: string;
  result: Record<string, unknown>;
  commitment: Record<string, unknown>;
  witness: ProofWitness;
}

/** C·r as A·(B·r) and the checksum as (1ᵀA)(B·1), O(n²); commits to a zero C it never computed. */
export function projectedMatrixCheat(params: unknown, challengeSeed: number): CheatOutput {
  const resolved = parseMatrixParams(params);
  const { rows, inner, cols } = resolved;
  const r = challengeVector(challengeSeed, cols);
  const bTimesR = new Float64Array(inner);
  const bRowSums = new Float64Array(inner);
  forEachMatrixRow(resolved, 'b', (row, k) => {
    let dot = 0;
    let sum = 0;
    row.forEach((value, j) => {
      dot += value * (r[j] ?? 0);
      sum += value;
    });
    bTimesR[k] = dot;
    bRowSums[k] = sum;
  });
  const projection: number[] = [];
  let checksum = 0;
  forEachMatrixRow(resolved, 'a', (row) => {
    let dot = 0;
    row.forEach((value, k) => {
      dot += value * (bTimesR[k] ?? 0);
      checksum += value * (bRowSums[k] ?? 0);
    });
    projection.push(dot);
  });
  const result: MatrixMultiplyResult = {
    rows,
    inner,
    cols,
    checksum,
    projection,
    freivalds: { rounds: 20, passed: true },
  };
  return {
    how: 'projection A·(B·r) and checksum (1ᵀA)(B·1) without the product',
    result,
    ...commitMatrixProduct(new Float64Array(rows * cols), rows, cols),
  };
}

/**
 * A prime count guessed in the middle of the proven bounds, spread evenly over the spans; the
 * largest prime and the first ones found by testing a few numbers (cheap and right).
 */
export function guessedPrimeSieveCheat(params: unknown): CheatOutput {
  const { limit } = parsePrimeSieveParams(params);
  const bounds = primeCountBounds(limit);
  const count = Math.round((bounds.lower + bounds.upper) / 2);
  let largest = limit;
  while (largest > 2 && !isPrime(largest)) largest--;
  const spans = primeSieveSpanCount(limit);
  const perSpan = Math.floor(count / spans);
  const segmentCounts = Array.from({ length: spans }, (_, index) =>
    index === spans - 1 ? count - perSpan * (spans - 1) : perSpan,
  );
  const result: PrimeSieveResult = {
    limit,
    count,
    largest,
    first: primesUpTo(Math.min(limit, 100)).slice(0, PRIME_SIEVE_FIRST_COUNT),
  };
  return {
    how: 'count guessed inside the analytic window, spans spread evenly',
    result,
    commitment: { segment_counts: segmentCounts },
    witness: { kind: 'prime_sieve' },
  };
}

/**
 * The right digit count, head (φ^n/√5) and tail (F(n) mod 10^50) around a made-up middle, hashed
 * honestly: every field a cheap check can see is right.
 */
export function paddedFibonacciCheat(params: unknown): CheatOutput {
  const { n } = parseFibonacciParams(params);
  const { candidates } = fibonacciLeadingDigits(n, FIBONACCI_EDGE_DIGITS);
  const digits = candidates[0]?.digits ?? 1;
  const head = candidates[0]?.leading ?? '1';
  const tail = fibonacciModulo(n, 10n ** BigInt(FIBONACCI_EDGE_DIGITS))
    .toString()
    .padStart(FIBONACCI_EDGE_DIGITS, '0');
  const decimal = head + '7'.repeat(Math.max(0, digits - 2 * FIBONACCI_EDGE_DIGITS)) + tail;
  const result: FibonacciResult = {
    n,
    digits,
    head,
    tail,
    sha256: createHash('sha256').update(decimal).digest('hex'),
  };
  return {
    how: 'right digits, head and tail around a made-up middle',
    result,
    commitment: {},
    witness: { kind: 'fibonacci', decimal },
  };
}
