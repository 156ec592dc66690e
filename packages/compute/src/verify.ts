// The server's check of a reported result before it counts. Every check costs far less than the job:
// O(n²) for an n×n product (never the O(n³) product itself), O(log n) big-number steps for F(n), a
// few hundred primality tests for a prime count. See README.md for what these checks can and cannot
// catch.
import { createHash } from 'node:crypto';
import {
  FIBONACCI_LIMITS,
  MATRIX_LIMITS,
  fibonacciParamsSchema,
  fibonacciResultSchema,
  matrixMultiplyParamsSchema,
  matrixMultiplyResultSchema,
  primeSieveParamsSchema,
  primeSieveResultSchema,
  type FibonacciResult,
  type JobType,
  type MatrixMultiplyResult,
  type PrimeSieveResult,
} from '@fabric/contract';
import { FIBONACCI_EDGE_DIGITS, PRIME_SIEVE_FIRST_COUNT } from './constants.ts';
import { agreementTolerance, gamma } from './float-bounds.ts';
import type { VerificationOutcome } from './index.ts';
import {
  KNOWN_PRIME_COUNTS,
  fibonacciLeadingDigits,
  fibonacciModulo,
  fibonacciPair,
  isPrime,
  primeCountBounds,
  primesUpTo,
} from './number-theory.ts';
import {
  forEachMatrixRow,
  resolveFibonacciParams,
  resolveMatrixParams,
  resolvePrimeSieveParams,
  type ResolvedFibonacciParams,
  type ResolvedMatrixParams,
  type ResolvedPrimeSieveParams,
} from './params.ts';
import { challengeVector } from './random.ts';

/** Up to this n the verifier computes F(n) whole and compares every field exactly. */
export const FIBONACCI_EXACT_CHECK_MAX_N = 100_000;
/** Up to this limit the verifier counts the primes itself. */
export const PRIME_SIEVE_EXACT_CHECK_MAX_LIMIT = 1_000_000;
/**
 * No gap between consecutive primes below 10^11 exceeds 464 (the maximal gap after 42 652 618 343,
 * table of maximal prime gaps, Nicely / Oliveira e Silva); a reported `largest` further below the
 * limit than this is wrong without testing the numbers between.
 */
export const PRIME_GAP_CEILING = 500;

const NO_KERNEL_YET = 'no kernel for this job type yet';

const ok: VerificationOutcome = { ok: true };
const fail = (reason: string): VerificationOutcome => ({ ok: false, reason });

/** The part of a zod schema this file uses (keeps zod itself out of this package's imports). */
interface ResultSchema<T> {
  safeParse(value: unknown):
    | { success: true; data: T }
    | {
        success: false;
        error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] };
      };
}

function describeIssue(error: {
  issues: readonly { path: readonly PropertyKey[]; message: string }[];
}): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'invalid';
  const path = issue.path.map(String).join('.');
  return path === '' ? issue.message : `${path}: ${issue.message}`;
}

function parseWith<T>(
  schema: ResultSchema<T>,
  value: unknown,
  what: 'params' | 'result',
): { data: T } | { outcome: VerificationOutcome } {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { data: parsed.data };
  const prefix = what === 'params' ? 'params are invalid' : 'result is malformed';
  return { outcome: fail(`${prefix}: ${describeIssue(parsed.error)}`) };
}

/**
 * Checks a reported result against the job's params and the lease's challenge seed. Parses both with
 * the contract's schemas, resolves defaults exactly as the kernels do, and answers `{ ok: true }` or
 * `{ ok: false, reason }` with a reason a person can read.
 */
export function verifyResult(
  jobType: JobType,
  params: unknown,
  result: unknown,
  challengeSeed: number,
): VerificationOutcome {
  switch (jobType) {
    case 'matrix_multiply': {
      const parsedParams = parseWith(matrixMultiplyParamsSchema, params, 'params');
      if ('outcome' in parsedParams) return parsedParams.outcome;
      const parsedResult = parseWith(matrixMultiplyResultSchema, result, 'result');
      if ('outcome' in parsedResult) return parsedResult.outcome;
      if (!Number.isSafeInteger(challengeSeed)) return fail('challenge seed is not an integer');
      return verifyMatrixMultiply(
        resolveMatrixParams(parsedParams.data),
        parsedResult.data,
        challengeSeed,
      );
    }
    case 'fibonacci': {
      const parsedParams = parseWith(fibonacciParamsSchema, params, 'params');
      if ('outcome' in parsedParams) return parsedParams.outcome;
      const parsedResult = parseWith(fibonacciResultSchema, result, 'result');
      if ('outcome' in parsedResult) return parsedResult.outcome;
      return verifyFibonacci(resolveFibonacciParams(parsedParams.data), parsedResult.data);
    }
    case 'prime_sieve': {
      const parsedParams = parseWith(primeSieveParamsSchema, params, 'params');
      if ('outcome' in parsedParams) return parsedParams.outcome;
      const parsedResult = parseWith(primeSieveResultSchema, result, 'result');
      if ('outcome' in parsedResult) return parsedResult.outcome;
      return verifyPrimeSieve(resolvePrimeSieveParams(parsedParams.data), parsedResult.data);
    }
    case 'neural_network_training':
    case 'transformer_inference':
    case 'llm_inference':
      return fail(NO_KERNEL_YET);
    default:
      return fail(NO_KERNEL_YET);
  }
}

// ---- matrix_multiply ----

/** What the verifier derives from A and B in one streaming pass over each (O(n²) time, O(n) memory). */
interface MatrixReference {
  /** A·(B·r) and its magnitude |A|·(|B|·|r|), the scale of its rounding error. */
  projection: Float64Array;
  projectionMagnitude: Float64Array;
  /** Row sums of C, A·(B·1), and their magnitude |A|·(|B|·1). */
  rowSums: Float64Array;
  rowSumMagnitude: Float64Array;
  /** Sum of all entries of C, (1ᵀA)(B1), and its magnitude (1ᵀ|A|)(|B|1). */
  checksum: number;
  checksumMagnitude: number;
}

function computeMatrixReference(
  params: ResolvedMatrixParams,
  challenge: Float64Array,
): MatrixReference {
  const { rows, inner } = params;
  const bTimesR = new Float64Array(inner);
  const bTimesRMagnitude = new Float64Array(inner);
  const bRowSums = new Float64Array(inner);
  const bRowAbsoluteSums = new Float64Array(inner);
  forEachMatrixRow(params, 'b', (row, k) => {
    let dot = 0;
    let dotMagnitude = 0;
    let sum = 0;
    let absoluteSum = 0;
    for (let j = 0; j < row.length; j++) {
      const value = row[j] ?? 0;
      const weight = challenge[j] ?? 0;
      dot += value * weight;
      dotMagnitude += Math.abs(value * weight);
      sum += value;
      absoluteSum += Math.abs(value);
    }
    bTimesR[k] = dot;
    bTimesRMagnitude[k] = dotMagnitude;
    bRowSums[k] = sum;
    bRowAbsoluteSums[k] = absoluteSum;
  });

  const projection = new Float64Array(rows);
  const projectionMagnitude = new Float64Array(rows);
  const rowSums = new Float64Array(rows);
  const rowSumMagnitude = new Float64Array(rows);
  const aColumnSums = new Float64Array(inner);
  const aColumnAbsoluteSums = new Float64Array(inner);
  forEachMatrixRow(params, 'a', (row, i) => {
    let dot = 0;
    let dotMagnitude = 0;
    let sum = 0;
    let sumMagnitude = 0;
    for (let k = 0; k < row.length; k++) {
      const value = row[k] ?? 0;
      const absolute = Math.abs(value);
      dot += value * (bTimesR[k] ?? 0);
      dotMagnitude += absolute * (bTimesRMagnitude[k] ?? 0);
      sum += value * (bRowSums[k] ?? 0);
      sumMagnitude += absolute * (bRowAbsoluteSums[k] ?? 0);
      aColumnSums[k] = (aColumnSums[k] ?? 0) + value;
      aColumnAbsoluteSums[k] = (aColumnAbsoluteSums[k] ?? 0) + absolute;
    }
    projection[i] = dot;
    projectionMagnitude[i] = dotMagnitude;
    rowSums[i] = sum;
    rowSumMagnitude[i] = sumMagnitude;
  });

  let checksum = 0;
  let checksumMagnitude = 0;
  for (let k = 0; k < inner; k++) {
    checksum += (aColumnSums[k] ?? 0) * (bRowSums[k] ?? 0);
    checksumMagnitude += (aColumnAbsoluteSums[k] ?? 0) * (bRowAbsoluteSums[k] ?? 0);
  }
  return { projection, projectionMagnitude, rowSums, rowSumMagnitude, checksum, checksumMagnitude };
}

/*
 * Tolerances (float-bounds.ts). The agent's C·r is two float64 steps (inner terms into each entry of
 * C, cols terms into C·r), and so is the verifier's A·(B·r); both lie within γ(inner + cols)·|A|·|B|·|r|
 * of the exact projection, whatever order the sums ran in, so they may differ by twice that
 * (agreementTolerance allows four times). The checksum allows γ(rows·cols + inner) for the agent's sum
 * over every entry of C plus γ(rows + cols + inner) for the verifier's (1ᵀA)(B1). These are
 * worst-case bounds, so an honest result never fails; at 2048² they come to about 10^-12 of the
 * magnitude, far below any real fault.
 */

function firstMismatch(
  reported: readonly number[],
  expected: Float64Array,
  magnitude: Float64Array,
  terms: number,
): number | undefined {
  for (let index = 0; index < expected.length; index++) {
    const difference = Math.abs((reported[index] ?? Number.NaN) - (expected[index] ?? 0));
    if (!(difference <= agreementTolerance(terms, magnitude[index] ?? 0))) return index;
  }
  return undefined;
}

function formatNumber(value: number | undefined): string {
  return value === undefined ? 'nothing' : value.toPrecision(17);
}

function verifyMatrixMultiply(
  params: ResolvedMatrixParams,
  result: MatrixMultiplyResult,
  challengeSeed: number,
): VerificationOutcome {
  const { rows, inner, cols } = params;
  if (result.rows !== rows || result.inner !== inner || result.cols !== cols) {
    return fail(
      `result shape ${result.rows}×${result.inner}×${result.cols} does not match the job's ${rows}×${inner}×${cols}`,
    );
  }
  if (result.projection.length !== rows) {
    return fail(`projection has ${result.projection.length} entries, expected ${rows}`);
  }
  if (result.freivalds.rounds < 1) return fail('the Freivalds check ran no rounds');
  if (!result.freivalds.passed) return fail('the agent reported a failed Freivalds check');

  const returnsProduct = rows * cols <= MATRIX_LIMITS.maxReturnedEntries;
  if (returnsProduct && result.c === undefined) {
    return fail(
      `c is missing: products of at most ${MATRIX_LIMITS.maxReturnedEntries} entries are returned whole`,
    );
  }
  if (!returnsProduct && result.c !== undefined) {
    return fail(
      `c must be left out: the product has more than ${MATRIX_LIMITS.maxReturnedEntries} entries`,
    );
  }
  if (result.c !== undefined) {
    if (result.c.length !== rows) return fail(`c has ${result.c.length} rows, expected ${rows}`);
    const badRow = result.c.findIndex((row) => row.length !== cols);
    if (badRow !== -1) {
      return fail(`c row ${badRow} has ${result.c[badRow]?.length ?? 0} entries, expected ${cols}`);
    }
  }

  const challenge = challengeVector(challengeSeed, cols);
  const reference = computeMatrixReference(params, challenge);
  const terms = inner + cols;

  const projectionMismatch = firstMismatch(
    result.projection,
    reference.projection,
    reference.projectionMagnitude,
    terms,
  );
  if (projectionMismatch !== undefined) {
    return fail(
      `projection differs from A·(B·r) at index ${projectionMismatch}: reported ${formatNumber(result.projection[projectionMismatch])}, expected ${formatNumber(reference.projection[projectionMismatch])}`,
    );
  }

  const checksumDifference = Math.abs(result.checksum - reference.checksum);
  const checksumTolerance =
    2 * (gamma(rows * cols + inner) + gamma(rows + cols + inner)) * reference.checksumMagnitude +
    agreementTolerance(rows * cols + inner, 0);
  if (!(checksumDifference <= checksumTolerance)) {
    return fail(
      `checksum ${formatNumber(result.checksum)} differs from the sum of all entries of A·B, ${formatNumber(reference.checksum)}`,
    );
  }

  if (result.c !== undefined) {
    const cTimesR: number[] = [];
    const cRowSums: number[] = [];
    for (const row of result.c) {
      let dot = 0;
      let sum = 0;
      for (let j = 0; j < cols; j++) {
        const value = row[j] ?? 0;
        dot += value * (challenge[j] ?? 0);
        sum += value;
      }
      cTimesR.push(dot);
      cRowSums.push(sum);
    }
    const rowSumMismatch = firstMismatch(
      cRowSums,
      reference.rowSums,
      reference.rowSumMagnitude,
      terms,
    );
    if (rowSumMismatch !== undefined) {
      return fail(
        `row ${rowSumMismatch} of c sums to ${formatNumber(cRowSums[rowSumMismatch])}, but that row of A·B sums to ${formatNumber(reference.rowSums[rowSumMismatch])}`,
      );
    }
    const cMismatch = firstMismatch(
      cTimesR,
      reference.projection,
      reference.projectionMagnitude,
      terms,
    );
    if (cMismatch !== undefined) {
      return fail(`c·r differs from A·(B·r) at index ${cMismatch}: c does not equal A·B`);
    }
  }
  return ok;
}

// ---- fibonacci ----

function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function verifyFibonacci(
  params: ResolvedFibonacciParams,
  result: FibonacciResult,
): VerificationOutcome {
  const { n } = params;
  if (result.n !== n) return fail(`result is for n = ${result.n}, but the job asks for n = ${n}`);
  if (!/^[0-9a-f]{64}$/.test(result.sha256)) {
    return fail('sha256 must be 64 lowercase hexadecimal digits');
  }

  if (n <= FIBONACCI_EXACT_CHECK_MAX_N) {
    const value = fibonacciPair(n)[0].toString();
    if (result.digits !== value.length) {
      return fail(`F(${n}) has ${value.length} digits, the result says ${result.digits}`);
    }
    if (result.head !== value.slice(0, FIBONACCI_EDGE_DIGITS)) {
      return fail(`head is not the first digits of F(${n})`);
    }
    if (result.tail !== value.slice(-FIBONACCI_EDGE_DIGITS)) {
      return fail(`tail is not the last digits of F(${n})`);
    }
    if (result.sha256 !== sha256Hex(value)) return fail(`sha256 is not that of F(${n})`);
    if (value.length <= FIBONACCI_LIMITS.maxInlineDigits) {
      if (result.value === undefined) {
        return fail(
          `value is missing: F(${n}) has at most ${FIBONACCI_LIMITS.maxInlineDigits} digits`,
        );
      }
      if (result.value !== value) return fail(`value is not F(${n})`);
    } else if (result.value !== undefined) {
      return fail(`value must be left out above ${FIBONACCI_LIMITS.maxInlineDigits} digits`);
    }
    return ok;
  }

  // Large n: digit count and head from φ^n/√5, tail from F(n) mod 10^50. sha256 cannot be checked
  // without the whole number (README: limits).
  const { candidates } = fibonacciLeadingDigits(n, FIBONACCI_EDGE_DIGITS);
  const digitCounts = candidates.map((candidate) => candidate.digits);
  if (!digitCounts.includes(result.digits)) {
    return fail(`F(${n}) has ${digitCounts[0] ?? '?'} digits, the result says ${result.digits}`);
  }
  if (!candidates.some((candidate) => candidate.leading === result.head)) {
    return fail(`head is not the first ${FIBONACCI_EDGE_DIGITS} digits of F(${n})`);
  }
  const tail = fibonacciModulo(n, 10n ** BigInt(FIBONACCI_EDGE_DIGITS))
    .toString()
    .padStart(FIBONACCI_EDGE_DIGITS, '0');
  if (result.tail !== tail) {
    let position = 0;
    while (position < tail.length && result.tail[position] === tail[position]) position++;
    return fail(
      `tail is not the last ${FIBONACCI_EDGE_DIGITS} digits of F(${n}) (first difference at tail position ${position})`,
    );
  }
  if (result.value !== undefined) {
    return fail(`value must be left out above ${FIBONACCI_LIMITS.maxInlineDigits} digits`);
  }
  return ok;
}

// ---- prime_sieve ----

function verifyPrimeSieve(
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
