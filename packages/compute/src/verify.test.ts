import { createHash } from 'node:crypto';
import { MATRIX_LIMITS } from '@fabric/contract';
import { describe, expect, it } from 'vitest';
import { fibonacciPair } from './number-theory.ts';
import { challengeVector, generateMatrix } from './random.ts';
import { verifyResult } from './verify.ts';

// Reference results computed the slow obvious way (triple loop, BigInt additions, byte sieve), so the
// verifier is tested against arithmetic that shares no code with it.

function slowMatrixResult(
  a: number[][],
  b: number[][],
  challengeSeed: number,
): Record<string, unknown> {
  const rows = a.length;
  const inner = b.length;
  const cols = b[0]?.length ?? 0;
  const c: number[][] = [];
  for (let i = 0; i < rows; i++) {
    const row: number[] = [];
    for (let j = 0; j < cols; j++) {
      let sum = 0;
      for (let k = 0; k < inner; k++) sum += (a[i]?.[k] ?? 0) * (b[k]?.[j] ?? 0);
      row.push(sum);
    }
    c.push(row);
  }
  const r = challengeVector(challengeSeed, cols);
  const projection = c.map((row) => row.reduce((sum, value, j) => sum + value * (r[j] ?? 0), 0));
  const checksum = c.flat().reduce((sum, value) => sum + value, 0);
  return {
    rows,
    inner,
    cols,
    checksum,
    projection,
    freivalds: { rounds: 10, passed: true },
    ...(rows * cols <= MATRIX_LIMITS.maxReturnedEntries ? { c } : {}),
  };
}

function toRows(flat: Float64Array, rows: number, cols: number): number[][] {
  return Array.from({ length: rows }, (_, i) =>
    Array.from(flat.subarray(i * cols, (i + 1) * cols)),
  );
}

function seededMatrixResult(
  seed: number,
  rows: number,
  inner: number,
  cols: number,
  challengeSeed: number,
) {
  const a = toRows(generateMatrix(seed, rows, inner, 'a'), rows, inner);
  const b = toRows(generateMatrix(seed, inner, cols, 'b'), inner, cols);
  return slowMatrixResult(a, b, challengeSeed);
}

function reasonOf(outcome: ReturnType<typeof verifyResult>): string {
  return outcome.ok ? 'accepted' : outcome.reason;
}

describe('verifyResult: matrix_multiply', () => {
  const inlineA = [
    [1, 2],
    [3, 4],
    [5, 6],
  ];
  const inlineB = [
    [7, 8, 9],
    [10, 11, 12],
  ];
  const inlineParams = { a: inlineA, b: inlineB };

  it('accepts a correct inline product (with c) and a correct seeded product (without c)', () => {
    expect(
      verifyResult('matrix_multiply', inlineParams, slowMatrixResult(inlineA, inlineB, 5), 5),
    ).toEqual({
      ok: true,
    });
    const params = { rows: 70, inner: 30, cols: 90, seed: 4 };
    expect(
      verifyResult('matrix_multiply', params, seededMatrixResult(4, 70, 30, 90, 77), 77),
    ).toEqual({
      ok: true,
    });
  });

  it('applies the defaults: {} is a 256×256×256 product of seed 1', () => {
    expect(verifyResult('matrix_multiply', {}, seededMatrixResult(1, 256, 256, 256, 3), 3)).toEqual(
      {
        ok: true,
      },
    );
  });

  it('accepts results whose sums ran in another order (tolerance covers float64 rounding)', () => {
    const result = seededMatrixResult(2, 40, 300, 40, 9);
    const reordered = {
      ...result,
      projection: (result.projection as number[]).map((value) => value * (1 + 2 ** -50)),
      checksum: (result.checksum as number) * (1 - 2 ** -50),
    };
    expect(
      verifyResult('matrix_multiply', { rows: 40, inner: 300, cols: 40, seed: 2 }, reordered, 9),
    ).toEqual({
      ok: true,
    });
  });

  it('rejects one wrong projection entry and names its index', () => {
    const params = { size: 20, seed: 3 };
    const result = seededMatrixResult(3, 20, 20, 20, 1);
    const projection = [...(result.projection as number[])];
    projection[17] = (projection[17] ?? 0) + 1e-6;
    const outcome = verifyResult('matrix_multiply', params, { ...result, projection }, 1);
    expect(reasonOf(outcome)).toMatch(/^projection differs from A·\(B·r\) at index 17/);
  });

  it('rejects a projection computed for another challenge seed', () => {
    const params = { size: 16, seed: 3 };
    const outcome = verifyResult(
      'matrix_multiply',
      params,
      seededMatrixResult(3, 16, 16, 16, 1),
      2,
    );
    expect(reasonOf(outcome)).toMatch(/^projection differs/);
  });

  it('rejects a projection of the wrong length', () => {
    const result = seededMatrixResult(3, 8, 8, 8, 1);
    const projection = (result.projection as number[]).slice(1);
    expect(
      reasonOf(verifyResult('matrix_multiply', { size: 8, seed: 3 }, { ...result, projection }, 1)),
    ).toBe('projection has 7 entries, expected 8');
  });

  it('rejects a wrong checksum', () => {
    const result = seededMatrixResult(3, 30, 30, 30, 1);
    const outcome = verifyResult(
      'matrix_multiply',
      { size: 30, seed: 3 },
      { ...result, checksum: (result.checksum as number) + 0.01 },
      1,
    );
    expect(reasonOf(outcome)).toMatch(/^checksum .* differs from the sum of all entries of A·B/);
  });

  it('rejects a wrong shape', () => {
    const result = seededMatrixResult(3, 8, 8, 8, 1);
    expect(
      reasonOf(verifyResult('matrix_multiply', { size: 8, seed: 3 }, { ...result, inner: 9 }, 1)),
    ).toBe("result shape 8×9×8 does not match the job's 8×8×8");
  });

  it('rejects a c with a wrong entry, a wrong row length or missing rows', () => {
    const result = slowMatrixResult(inlineA, inlineB, 5);
    const c = structuredClone(result.c) as number[][];
    (c[1] as number[])[2] = 70;
    expect(reasonOf(verifyResult('matrix_multiply', inlineParams, { ...result, c }, 5))).toMatch(
      /^row 1 of c sums to/,
    );
    const shortRow = structuredClone(result.c) as number[][];
    shortRow[2]?.pop();
    expect(
      reasonOf(verifyResult('matrix_multiply', inlineParams, { ...result, c: shortRow }, 5)),
    ).toBe('c row 2 has 2 entries, expected 3');
    const missingRow = (result.c as number[][]).slice(0, 2);
    expect(
      reasonOf(verifyResult('matrix_multiply', inlineParams, { ...result, c: missingRow }, 5)),
    ).toBe('c has 2 rows, expected 3');
  });

  it('rejects a c whose entries were swapped within a row (row sums unchanged)', () => {
    const result = slowMatrixResult(inlineA, inlineB, 5);
    const c = structuredClone(result.c) as number[][];
    const row = c[0] as number[];
    [row[0], row[1]] = [row[1] ?? 0, row[0] ?? 0];
    expect(reasonOf(verifyResult('matrix_multiply', inlineParams, { ...result, c }, 5))).toBe(
      'c·r differs from A·(B·r) at index 0: c does not equal A·B',
    );
  });

  it('requires c for small products and refuses it for large ones', () => {
    const { c: _omitted, ...withoutC } = slowMatrixResult(inlineA, inlineB, 5);
    expect(reasonOf(verifyResult('matrix_multiply', inlineParams, withoutC, 5))).toMatch(
      /^c is missing/,
    );
    const large = seededMatrixResult(1, 65, 2, 65, 5);
    const withC = { ...large, c: Array.from({ length: 65 }, () => Array<number>(65).fill(0)) };
    expect(
      reasonOf(verifyResult('matrix_multiply', { rows: 65, inner: 2, cols: 65 }, withC, 5)),
    ).toMatch(/^c must be left out/);
  });

  it('rejects a failed or empty Freivalds check', () => {
    const result = slowMatrixResult(inlineA, inlineB, 5);
    expect(
      reasonOf(
        verifyResult(
          'matrix_multiply',
          inlineParams,
          { ...result, freivalds: { rounds: 10, passed: false } },
          5,
        ),
      ),
    ).toBe('the agent reported a failed Freivalds check');
    expect(
      reasonOf(
        verifyResult(
          'matrix_multiply',
          inlineParams,
          { ...result, freivalds: { rounds: 0, passed: true } },
          5,
        ),
      ),
    ).toBe('the Freivalds check ran no rounds');
  });

  it('rejects malformed results and invalid params with the field at fault', () => {
    expect(reasonOf(verifyResult('matrix_multiply', {}, { rows: 256 }, 1))).toMatch(
      /^result is malformed: /,
    );
    expect(reasonOf(verifyResult('matrix_multiply', {}, null, 1))).toMatch(/^result is malformed/);
    expect(reasonOf(verifyResult('matrix_multiply', { size: 2049 }, {}, 1))).toBe(
      'params are invalid: size: size must be at most 2048',
    );
  });
});

function slowFibonacci(n: number): string {
  let current = 0n;
  let next = 1n;
  for (let index = 0; index < n; index++) [current, next] = [next, current + next];
  return current.toString();
}

function fibonacciResultFrom(n: number, value: string): Record<string, unknown> {
  return {
    n,
    digits: value.length,
    head: value.slice(0, 50),
    tail: value.slice(-50),
    sha256: createHash('sha256').update(value).digest('hex'),
    ...(value.length <= 1000 ? { value } : {}),
  };
}

describe('verifyResult: fibonacci', () => {
  it('accepts correct results for n = 0, 1, 2, 100, the default 1000 and 20 000', () => {
    for (const n of [0, 1, 2, 100, 1000, 20_000]) {
      expect(verifyResult('fibonacci', { n }, fibonacciResultFrom(n, slowFibonacci(n)), 0)).toEqual(
        { ok: true },
      );
    }
    expect(slowFibonacci(100)).toBe('354224848179261915075');
    expect(
      verifyResult('fibonacci', {}, fibonacciResultFrom(1000, slowFibonacci(1000)), 0),
    ).toEqual({ ok: true });
  });

  it('accepts a correct large result checked without the whole number (n above the exact-check bound)', () => {
    const n = 250_001;
    const value = fibonacciPair(n)[0].toString();
    expect(value.slice(-30)).toBe(slowFibonacciTail(n, 30));
    expect(verifyResult('fibonacci', { n }, fibonacciResultFrom(n, value), 0)).toEqual({
      ok: true,
    });
  });

  it('rejects a wrong tail digit, head digit or digit count, small and large n', () => {
    for (const n of [5000, 250_001]) {
      const result = fibonacciResultFrom(n, fibonacciPair(n)[0].toString());
      const tail = result.tail as string;
      const head = result.head as string;
      const wrongTail = tail.slice(0, 49) + String((Number(tail[49]) + 1) % 10);
      const wrongHead = head.slice(0, 10) + String((Number(head[10]) + 1) % 10) + head.slice(11);
      expect(reasonOf(verifyResult('fibonacci', { n }, { ...result, tail: wrongTail }, 0))).toMatch(
        /^tail is not/,
      );
      expect(reasonOf(verifyResult('fibonacci', { n }, { ...result, head: wrongHead }, 0))).toMatch(
        /^head is not/,
      );
      expect(
        reasonOf(
          verifyResult('fibonacci', { n }, { ...result, digits: (result.digits as number) + 1 }, 0),
        ),
      ).toMatch(new RegExp(`^F\\(${n}\\) has ${result.digits as number} digits, the result says`));
    }
  });

  it('rejects a value or sha256 that does not match F(n), and a result for another n', () => {
    const result = fibonacciResultFrom(300, slowFibonacci(300));
    const value = result.value as string;
    const wrongValue = value.slice(0, 30) + (value[30] === '1' ? '2' : '1') + value.slice(31);
    expect(
      reasonOf(verifyResult('fibonacci', { n: 300 }, { ...result, value: wrongValue }, 0)),
    ).toBe('value is not F(300)');
    expect(
      reasonOf(verifyResult('fibonacci', { n: 300 }, { ...result, sha256: '0'.repeat(64) }, 0)),
    ).toBe('sha256 is not that of F(300)');
    expect(reasonOf(verifyResult('fibonacci', { n: 300 }, { ...result, sha256: 'XYZ' }, 0))).toBe(
      'sha256 must be 64 lowercase hexadecimal digits',
    );
    expect(reasonOf(verifyResult('fibonacci', { n: 301 }, result, 0))).toBe(
      'result is for n = 300, but the job asks for n = 301',
    );
    const { value: _omitted, ...withoutValue } = result;
    expect(reasonOf(verifyResult('fibonacci', { n: 300 }, withoutValue, 0))).toMatch(
      /^value is missing/,
    );
  });

  it('rejects malformed results and invalid params', () => {
    expect(reasonOf(verifyResult('fibonacci', { n: 5 }, { n: 5, digits: '1' }, 0))).toMatch(
      /^result is malformed: digits/,
    );
    expect(reasonOf(verifyResult('fibonacci', { n: 10_000_001 }, {}, 0))).toBe(
      'params are invalid: n: n must be at most 10000000',
    );
  });
});

/** F(n) mod 10^digits by plain iteration (no shared code with the verifier's fast doubling). */
function slowFibonacciTail(n: number, digits: number): string {
  const modulus = 10n ** BigInt(digits);
  let current = 0n;
  let next = 1n;
  for (let index = 0; index < n; index++) [current, next] = [next, (current + next) % modulus];
  return current.toString().padStart(digits, '0');
}

function slowPrimes(limit: number): number[] {
  const composite = new Uint8Array(limit + 1);
  const primes: number[] = [];
  for (let candidate = 2; candidate <= limit; candidate++) {
    if (composite[candidate] === 1) continue;
    primes.push(candidate);
    for (let multiple = candidate * 2; multiple <= limit; multiple += candidate)
      composite[multiple] = 1;
  }
  return primes;
}

function slowPrimeCount(limit: number): number {
  let count = 0;
  const composite = new Uint8Array(limit + 1);
  for (let candidate = 2; candidate <= limit; candidate++) {
    if (composite[candidate] === 1) continue;
    count++;
    for (let multiple = candidate * candidate; multiple <= limit; multiple += candidate)
      composite[multiple] = 1;
  }
  return count;
}

function primeResultFrom(limit: number): Record<string, unknown> {
  const primes = slowPrimes(limit);
  return {
    limit,
    count: primes.length,
    largest: primes.at(-1) ?? null,
    first: primes.slice(0, 10),
  };
}

describe('verifyResult: prime_sieve', () => {
  it('accepts correct results for small limits, exact and table-checked ones, and the default', () => {
    for (const limit of [2, 3, 4, 10, 29, 30, 1000, 65_537, 1_000_000]) {
      expect(verifyResult('prime_sieve', { limit }, primeResultFrom(limit), 0)).toEqual({
        ok: true,
      });
    }
    const first = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29];
    expect(
      verifyResult(
        'prime_sieve',
        {},
        { limit: 10_000_000, count: 664_579, largest: 9_999_991, first },
        0,
      ),
    ).toEqual({
      ok: true,
    });
    expect(
      verifyResult(
        'prime_sieve',
        { limit: 1e11 },
        { limit: 1e11, count: 4_118_054_813, largest: 99_999_999_977, first },
        0,
      ),
    ).toEqual({ ok: true });
  });

  it('accepts a count off the table when it lies within the proven bounds, and rejects one outside', () => {
    const limit = 3_000_000;
    const result = primeResultFrom(limit);
    const count = result.count as number;
    expect(count).toBe(slowPrimeCount(limit));
    expect(verifyResult('prime_sieve', { limit }, result, 0)).toEqual({ ok: true });
    expect(
      reasonOf(verifyResult('prime_sieve', { limit }, { ...result, count: count - 5000 }, 0)),
    ).toMatch(/^count \d+ is impossible: the number of primes up to 3000000 lies between/);
  });

  it('rejects a wrong count where the count is known', () => {
    expect(
      reasonOf(
        verifyResult('prime_sieve', { limit: 1000 }, { ...primeResultFrom(1000), count: 169 }, 0),
      ),
    ).toBe('count is 169, but there are 168 primes up to 1000');
    const first = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29];
    expect(
      reasonOf(
        verifyResult(
          'prime_sieve',
          {},
          { limit: 1e7, count: 664_580, largest: 9_999_991, first },
          0,
        ),
      ),
    ).toBe('count is 664580, but there are 664579 primes up to 10000000');
  });

  it('rejects a largest that is not prime, not the largest, above the limit or far below it', () => {
    const result = primeResultFrom(1000); // largest 997
    expect(
      reasonOf(verifyResult('prime_sieve', { limit: 1000 }, { ...result, largest: 999 }, 0)),
    ).toBe('largest (999) is not prime');
    expect(
      reasonOf(verifyResult('prime_sieve', { limit: 1000 }, { ...result, largest: 991 }, 0)),
    ).toBe('largest (991) is not the largest prime up to 1000: 997 is prime');
    expect(
      reasonOf(verifyResult('prime_sieve', { limit: 1000 }, { ...result, largest: 1009 }, 0)),
    ).toBe('largest (1009) exceeds the limit 1000');
    expect(
      reasonOf(
        verifyResult('prime_sieve', { limit: 1e11 }, { ...result, limit: 1e11, largest: 2 }, 0),
      ),
    ).toMatch(/^largest \(2\) lies 99999999998 below the limit/);
    expect(
      reasonOf(verifyResult('prime_sieve', { limit: 1000 }, { ...result, largest: null }, 0)),
    ).toBe('largest is missing: there are primes up to 1000');
  });

  it('rejects wrong first primes', () => {
    const result = primeResultFrom(1000);
    expect(
      reasonOf(
        verifyResult(
          'prime_sieve',
          { limit: 1000 },
          { ...result, first: [2, 3, 5, 7, 11, 13, 17, 19, 23, 31] },
          0,
        ),
      ),
    ).toBe(
      'first must list the primes 2, 3, 5, 7, 11, 13, 17, 19, 23, 29; the result lists 2, 3, 5, 7, 11, 13, 17, 19, 23, 31',
    );
    expect(
      reasonOf(
        verifyResult('prime_sieve', { limit: 10 }, { ...primeResultFrom(10), first: [2, 3, 5] }, 0),
      ),
    ).toMatch(/^first must list the primes 2, 3, 5, 7;/);
  });

  it('rejects a result for another limit, malformed results and invalid params', () => {
    expect(reasonOf(verifyResult('prime_sieve', { limit: 100 }, primeResultFrom(1000), 0))).toBe(
      'result is for limit 1000, but the job asks for limit 100',
    );
    expect(
      reasonOf(verifyResult('prime_sieve', { limit: 100 }, { limit: 100, count: 25.5 }, 0)),
    ).toMatch(/^result is malformed: count/);
    expect(reasonOf(verifyResult('prime_sieve', { limit: 1e11 + 1 }, primeResultFrom(10), 0))).toBe(
      'params are invalid: limit: limit must be at most 100000000000',
    );
  });
});

describe('verifyResult: job types without a kernel', () => {
  it('refuses every result of the AI job types', () => {
    for (const jobType of ['transformer_inference', 'llm_inference'] as const) {
      expect(verifyResult(jobType, {}, {}, 1)).toEqual({
        ok: false,
        reason: 'no kernel for this job type yet',
      });
    }
  });
});
