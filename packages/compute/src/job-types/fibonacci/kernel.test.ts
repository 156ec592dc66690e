import { createHash } from 'node:crypto';
import { FIBONACCI_LIMITS, fibonacciParamsSchema } from '@fabric/contract';
import { describe, expect, it } from 'vitest';
import { fibonacciPair } from '../../number-theory.ts';
import { parseFibonacciParams, resolveFibonacciParams } from '../../params.ts';
import { verifyResult } from '../../verify.ts';
import { runFibonacci } from './kernel.ts';
import { KernelAbortedError } from '../../kernels/hooks.ts';

/** F(n) by n BigInt additions: shares no code with the kernel. */
function slowFibonacci(n: number): string {
  let current = 0n;
  let next = 1n;
  for (let index = 0; index < n; index++) [current, next] = [next, current + next];
  return current.toString();
}

function slowFibonacciTail(n: number, digits: number): string {
  const modulus = 10n ** BigInt(digits);
  let current = 0n;
  let next = 1n;
  for (let index = 0; index < n; index++) [current, next] = [next, (current + next) % modulus];
  return current.toString().padStart(digits, '0');
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('runFibonacci', () => {
  it('computes the edge cases n = 0, 1, 2', () => {
    expect(runFibonacci({ n: 0 })).toEqual({
      n: 0,
      digits: 1,
      value: '0',
      head: '0',
      tail: '0',
      sha256: sha256('0'),
    });
    expect(runFibonacci({ n: 1 })).toMatchObject({ digits: 1, value: '1', head: '1', tail: '1' });
    expect(runFibonacci({ n: 2 })).toMatchObject({ digits: 1, value: '1', head: '1', tail: '1' });
    for (const n of [0, 1, 2, 3]) {
      expect(verifyResult('fibonacci', { n }, runFibonacci({ n }), 0)).toEqual({ ok: true });
    }
  });

  it('computes F(100) and the default F(1000) with its 209 digits', () => {
    expect(runFibonacci({ n: 100 }).value).toBe('354224848179261915075');
    const defaultResult = runFibonacci(resolveFibonacciParams({}));
    expect(defaultResult.n).toBe(FIBONACCI_LIMITS.defaultN);
    expect(defaultResult.digits).toBe(209);
    expect(defaultResult.head).toBe(defaultResult.value?.slice(0, 50));
    expect(defaultResult.tail).toBe(defaultResult.value?.slice(-50));
    expect(defaultResult.value).toBe(slowFibonacci(1000));
    expect(verifyResult('fibonacci', {}, defaultResult, 0)).toEqual({ ok: true });
  });

  it('includes value exactly up to 1000 digits', () => {
    let n = 4780;
    while (fibonacciPair(n + 1)[0].toString().length <= FIBONACCI_LIMITS.maxInlineDigits) n++;
    const atLimit = runFibonacci({ n });
    const aboveLimit = runFibonacci({ n: n + 1 });
    expect(atLimit.digits).toBe(1000);
    expect(atLimit.value).toHaveLength(1000);
    expect(aboveLimit.digits).toBe(1001);
    expect(aboveLimit.value).toBeUndefined();
    expect(verifyResult('fibonacci', { n }, atLimit, 0)).toEqual({ ok: true });
    expect(verifyResult('fibonacci', { n: n + 1 }, aboveLimit, 0)).toEqual({ ok: true });
  });

  it('computes F(10^6): 208 988 digits, the last 50 as plain iteration finds them, accepted by the verifier', () => {
    const result = runFibonacci({ n: 1_000_000 });
    expect(result.digits).toBe(208_988);
    expect(result.tail).toBe(slowFibonacciTail(1_000_000, 50));
    expect(verifyResult('fibonacci', { n: 1_000_000 }, result, 0)).toEqual({ ok: true });
  });

  it('accepts n up to 10^7 in the schema and refuses 10 000 001', () => {
    expect(parseFibonacciParams({ n: FIBONACCI_LIMITS.maxN })).toEqual({ n: 10_000_000 });
    expect(fibonacciParamsSchema.safeParse({ n: 10_000_001 }).success).toBe(false);
    expect(fibonacciParamsSchema.safeParse({ n: -1 }).success).toBe(false);
  });

  it('reports progress up to 1 and stops when asked', () => {
    const fractions: number[] = [];
    runFibonacci({ n: 100_000 }, { onProgress: (fraction) => fractions.push(fraction) });
    expect(fractions.at(-1)).toBe(1);
    expect(
      fractions.every((fraction, index) => index === 0 || fraction > (fractions[index - 1] ?? 0)),
    ).toBe(true);
    let polls = 0;
    expect(() => runFibonacci({ n: 100_000 }, { shouldStop: () => ++polls > 3 })).toThrow(
      KernelAbortedError,
    );
  });
});
