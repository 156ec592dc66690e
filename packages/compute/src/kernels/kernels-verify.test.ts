import { describe, expect, it } from 'vitest';
import { parseFibonacciParams, parseMatrixParams, parsePrimeSieveParams } from '../params.ts';
import { SeededRandom } from '../random.ts';
import { verifyResult } from '../verify.ts';
import { runFibonacci } from '../job-types/fibonacci/kernel.ts';
import { runMatrixMultiply } from '../job-types/matrix-multiply/kernel.ts';
import { runPrimeSieve } from '../job-types/prime-sieve/kernel.ts';

// Property-style checks over seeded random cases: every kernel result verifies, and the smallest
// tampering of it does not.
const random = new SeededRandom(2026, 'kernel-properties');
const between = (low: number, high: number) => low + (random.nextUint32() % (high - low + 1));

describe('kernel results against the verifier', () => {
  it('accepts random matrix shapes and refuses any single perturbed projection or c entry', () => {
    for (let trial = 0; trial < 25; trial++) {
      const params = {
        rows: between(1, 70),
        inner: between(1, 70),
        cols: between(1, 70),
        seed: trial,
      };
      const challengeSeed = between(0, 1_000_000);
      const result = runMatrixMultiply(parseMatrixParams(params), {}, challengeSeed);
      expect(verifyResult('matrix_multiply', params, result, challengeSeed)).toEqual({ ok: true });

      const index = between(0, params.rows - 1);
      const projection = [...result.projection];
      projection[index] = (projection[index] ?? 0) * (1 + 1e-9) + 1e-9;
      expect(
        verifyResult('matrix_multiply', params, { ...result, projection }, challengeSeed).ok,
      ).toBe(false);

      if (result.c !== undefined) {
        const c = result.c.map((row) => [...row]);
        const row = c[between(0, params.rows - 1)] ?? [];
        const col = between(0, params.cols - 1);
        row[col] = (row[col] ?? 0) + 1e-7;
        expect(verifyResult('matrix_multiply', params, { ...result, c }, challengeSeed).ok).toBe(
          false,
        );
      }
    }
  });

  it('accepts random Fibonacci indices and refuses a changed last digit', () => {
    for (let trial = 0; trial < 12; trial++) {
      const n = trial < 6 ? between(0, 5000) : between(100_001, 300_000);
      const result = runFibonacci(parseFibonacciParams({ n }));
      expect(verifyResult('fibonacci', { n }, result, 0)).toEqual({ ok: true });
      const last = Number(result.tail.at(-1));
      const tail = result.tail.slice(0, -1) + String((last + 1) % 10);
      expect(verifyResult('fibonacci', { n }, { ...result, tail }, 0).ok).toBe(false);
    }
  });

  it('accepts random sieve limits and refuses a count off by one', () => {
    for (let trial = 0; trial < 25; trial++) {
      const limit = trial < 15 ? between(2, 3000) : between(1_000_001, 20_000_000);
      const result = runPrimeSieve(parsePrimeSieveParams({ limit }));
      expect(verifyResult('prime_sieve', { limit }, result, 0)).toEqual({ ok: true });
      if (limit <= 1_000_000) {
        expect(
          verifyResult('prime_sieve', { limit }, { ...result, count: result.count + 1 }, 0).ok,
        ).toBe(false);
      }
    }
  });
});
