// matrix_multiply's own checks of a result, before its proof (proof.ts): O(n²) time, O(n) memory.
import { MATRIX_LIMITS, type MatrixMultiplyResult } from '@fabric/contract';
import { agreementTolerance, gamma } from '../../float-bounds.ts';
import { forEachMatrixRow, type ResolvedMatrixParams } from '../../params.ts';
import { challengeVector } from '../../random.ts';
import { fail, ok, type VerificationOutcome } from '../../verification.ts';

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

export function verifyMatrixMultiply(
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
