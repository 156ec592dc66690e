import { MATRIX_LIMITS, matrixMultiplyParamsSchema } from '@fabric/contract';
import { describe, expect, it } from 'vitest';
import { materializeMatrix, parseMatrixParams, resolveMatrixParams } from '../../params.ts';
import { challengeVector } from '../../random.ts';
import { verifyResult } from '../../verify.ts';
import { KernelAbortedError, KernelInputError } from '../../kernels/hooks.ts';
import {
  FREIVALDS_ROUNDS,
  buildMatrixResult,
  freivaldsCheck,
  multiplyBand,
  runMatrixMultiply,
  transposeMatrix,
} from './kernel.ts';

/** The textbook triple loop, summing each entry in ascending k like the kernel does. */
function naiveProduct(a: Float64Array, b: Float64Array, rows: number, inner: number, cols: number) {
  const c = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      let sum = 0;
      for (let k = 0; k < inner; k++) sum += (a[i * inner + k] ?? 0) * (b[k * cols + j] ?? 0);
      c[i * cols + j] = sum;
    }
  }
  return c;
}

describe('runMatrixMultiply', () => {
  it('multiplies 1×1 matrices', () => {
    const result = runMatrixMultiply(parseMatrixParams({ a: [[3]], b: [[-4]] }), {}, 8);
    expect(result.c).toEqual([[-12]]);
    expect(result.checksum).toBe(-12);
    expect(result.projection).toEqual([-12 * (challengeVector(8, 1)[0] ?? 0)]);
    expect(result.freivalds).toEqual({ rounds: FREIVALDS_ROUNDS, passed: true });
    expect(verifyResult('matrix_multiply', { a: [[3]], b: [[-4]] }, result, 8)).toEqual({
      ok: true,
    });
  });

  it('multiplies inline non-square matrices to the hand-computed product', () => {
    const params = {
      a: [
        [1, 2, 3],
        [4, 5, 6],
      ],
      b: [
        [7, 8],
        [9, 10],
        [11, 12],
      ],
    };
    const result = runMatrixMultiply(parseMatrixParams(params), {}, 1);
    expect(result).toMatchObject({ rows: 2, inner: 3, cols: 2, checksum: 58 + 64 + 139 + 154 });
    expect(result.c).toEqual([
      [58, 64],
      [139, 154],
    ]);
    expect(verifyResult('matrix_multiply', params, result, 1)).toEqual({ ok: true });
  });

  it('equals the triple loop bit for bit on seeded non-square shapes, including ragged edges', () => {
    for (const [rows, inner, cols] of [
      [37, 5, 61],
      [7, 64, 3],
      [1, 9, 130],
      [66, 1, 2],
    ] as const) {
      const params = parseMatrixParams({ rows, inner, cols, seed: rows });
      const a = materializeMatrix(params, 'a');
      const b = materializeMatrix(params, 'b');
      const c = multiplyBand(a, b, params, 0, rows);
      expect(Array.from(c)).toEqual(Array.from(naiveProduct(a, b, rows, inner, cols)));
      const result = runMatrixMultiply(params, {}, 99);
      const flatC = new Float64Array(rows * cols);
      flatC.set(c);
      expect(result).toEqual(buildMatrixResult(params, { a, b, c: flatC }, 99));
      expect(
        verifyResult('matrix_multiply', { rows, inner, cols, seed: rows }, result, 99),
      ).toEqual({
        ok: true,
      });
    }
  });

  it('runs the defaults ({} is 256×256×256 of seed 1) and the result verifies', () => {
    const resolved = resolveMatrixParams({});
    expect(resolved).toEqual({
      rows: 256,
      inner: 256,
      cols: 256,
      source: { kind: 'seeded', seed: 1 },
    });
    const result = runMatrixMultiply(resolved, {}, 12345);
    expect(result.c).toBeUndefined();
    expect(result.projection).toHaveLength(256);
    expect(verifyResult('matrix_multiply', {}, result, 12345)).toEqual({ ok: true });
  });

  it('returns c up to MATRIX_LIMITS.maxReturnedEntries entries and leaves it out above', () => {
    expect(MATRIX_LIMITS.maxReturnedEntries).toBe(64 * 64);
    const atLimit = runMatrixMultiply(parseMatrixParams({ rows: 64, inner: 3, cols: 64 }), {}, 1);
    expect(atLimit.c).toHaveLength(64);
    const aboveLimit = runMatrixMultiply(
      parseMatrixParams({ rows: 65, inner: 3, cols: 64 }),
      {},
      1,
    );
    expect(aboveLimit.c).toBeUndefined();
    expect(
      verifyResult('matrix_multiply', { rows: 65, inner: 3, cols: 64 }, aboveLimit, 1),
    ).toEqual({
      ok: true,
    });
  });

  it('handles the largest dimensions the schema accepts, and the schema refuses larger ones', () => {
    const params = { rows: 2048, inner: 2048, cols: 1 };
    expect(matrixMultiplyParamsSchema.safeParse({ size: 2048 }).success).toBe(true);
    const result = runMatrixMultiply(parseMatrixParams(params), {}, 5);
    expect(result.projection).toHaveLength(2048);
    expect(verifyResult('matrix_multiply', params, result, 5)).toEqual({ ok: true });

    expect(matrixMultiplyParamsSchema.safeParse({ size: 2049 }).success).toBe(false);
    expect(matrixMultiplyParamsSchema.safeParse({ cols: 2049 }).success).toBe(false);
    const tooManyRows = Array.from({ length: MATRIX_LIMITS.maxInlineSize + 1 }, () => [1]);
    expect(matrixMultiplyParamsSchema.safeParse({ a: tooManyRows, b: [[1]] }).success).toBe(false);
    expect(() => parseMatrixParams({ size: 0 })).toThrow();
  });

  it('refuses a product that overflows float64 as an input error', () => {
    expect(() =>
      runMatrixMultiply(parseMatrixParams({ a: [[1e300]], b: [[1e300]] }), {}, 1),
    ).toThrow(KernelInputError);
  });

  it('reports increasing progress up to 1 and stops when asked', () => {
    const fractions: number[] = [];
    runMatrixMultiply(
      parseMatrixParams({ size: 200 }),
      { onProgress: (fraction) => fractions.push(fraction) },
      1,
    );
    expect(fractions.length).toBeGreaterThanOrEqual(20);
    expect(fractions.at(-1)).toBe(1);
    expect(
      fractions.every((fraction, index) => index === 0 || fraction > (fractions[index - 1] ?? 0)),
    ).toBe(true);

    let polls = 0;
    const shouldStop = () => ++polls > 5;
    expect(() => runMatrixMultiply(parseMatrixParams({ size: 200 }), { shouldStop }, 1)).toThrow(
      KernelAbortedError,
    );
    expect(polls).toBe(6);
  });
});

describe('multiplyBand', () => {
  it('lets disjoint bands fill one shared C that equals the whole product', () => {
    const params = parseMatrixParams({ rows: 45, inner: 33, cols: 29, seed: 7 });
    const a = materializeMatrix(params, 'a', new Float64Array(new SharedArrayBuffer(45 * 33 * 8)));
    const b = materializeMatrix(params, 'b', new Float64Array(new SharedArrayBuffer(33 * 29 * 8)));
    const bTransposed = transposeMatrix(b, 33, 29);
    const c = new Float64Array(new SharedArrayBuffer(45 * 29 * 8));
    for (const [start, end] of [
      [30, 45],
      [0, 13],
      [13, 30],
    ] as const) {
      // As in a worker: only the shared A, Bᵀ and C, no B.
      multiplyBand(a, new Float64Array(0), params, start, end, { c, bTransposed });
    }
    expect(Array.from(c)).toEqual(Array.from(naiveProduct(a, b, 45, 33, 29)));
    expect(buildMatrixResult(params, { a, b, c }, 3)).toEqual(runMatrixMultiply(params, {}, 3));
  });

  it('writes only the rows of its band and refuses bands outside the matrix', () => {
    const params = parseMatrixParams({ size: 8 });
    const a = materializeMatrix(params, 'a');
    const b = materializeMatrix(params, 'b');
    const c = multiplyBand(a, b, params, 2, 5);
    expect(Array.from(c.subarray(0, 16)).every((value) => value === 0)).toBe(true);
    expect(Array.from(c.subarray(40)).every((value) => value === 0)).toBe(true);
    expect(Array.from(c.subarray(16, 40)).some((value) => value !== 0)).toBe(true);
    expect(() => multiplyBand(a, b, params, 5, 9)).toThrow(RangeError);
    expect(() => multiplyBand(a, b, params, 3, 2)).toThrow(RangeError);
  });

  it('stops between row blocks when asked', () => {
    const params = parseMatrixParams({ size: 32 });
    const a = materializeMatrix(params, 'a');
    const b = materializeMatrix(params, 'b');
    expect(() => multiplyBand(a, b, params, 0, 32, { hooks: { shouldStop: () => true } })).toThrow(
      KernelAbortedError,
    );
  });
});

describe('freivaldsCheck', () => {
  it('passes the true product and fails one with a single wrong entry', () => {
    const params = parseMatrixParams({ rows: 30, inner: 20, cols: 25, seed: 2 });
    const a = materializeMatrix(params, 'a');
    const b = materializeMatrix(params, 'b');
    const c = multiplyBand(a, b, params, 0, 30);
    expect(freivaldsCheck({ a, b, c }, params, 1)).toBe(true);
    c[17 * 25 + 4] = (c[17 * 25 + 4] ?? 0) + 1e-6;
    expect(freivaldsCheck({ a, b, c }, params, 1)).toBe(false);
    const result = buildMatrixResult(params, { a, b, c }, 1);
    expect(result.freivalds).toEqual({ rounds: FREIVALDS_ROUNDS, passed: false });
    expect(
      verifyResult('matrix_multiply', { rows: 30, inner: 20, cols: 25, seed: 2 }, result, 1).ok,
    ).toBe(false);
  });
});
