// F(n) exactly: fast doubling with BigInt (about 2 log2(n) big multiplications, which V8 performs with
// Karatsuba/Toom-Cook/FFT as the numbers grow), then the decimal string for digits, head, tail and
// hash. V8's BigInt.prototype.toString is sub-quadratic (10× the digits cost 16× the time); a
// JavaScript divide-and-conquer conversion over BigInt division measured 1.3–1.5× slower (README),
// so we use the built-in.
import { createHash } from 'node:crypto';
import { FIBONACCI_LIMITS, type FibonacciResult } from '@fabric/contract';
import { fibonacciPair } from '../../number-theory.ts';
import type { ResolvedFibonacciParams } from '../../params.ts';
import { FIBONACCI_EDGE_DIGITS } from '../../constants.ts';
import { ProgressTracker, type KernelHooks } from '../../kernels/hooks.ts';

// Share of the running time of each phase at large n (measured at n = 10^7: doubling 0.26 s,
// decimal conversion 0.9 s, hashing 3 ms); progress follows it.
const DOUBLING_SHARE = 0.22;
const CONVERSION_DONE = 0.98;

export function runFibonacci(
  params: ResolvedFibonacciParams,
  hooks: KernelHooks = {},
): FibonacciResult {
  return computeFibonacci(params, hooks).result;
}

/** The result with the whole decimal value, which the agent keeps to open if challenged. */
export function computeFibonacci(
  params: ResolvedFibonacciParams,
  hooks: KernelHooks = {},
): { result: FibonacciResult; decimal: string } {
  const { n } = params;
  const progress = new ProgressTracker(hooks);
  progress.checkStop();
  progress.report(0, 'fast doubling');
  const [value] = fibonacciPair(n, (step, steps) => {
    progress.checkStop();
    // Each step multiplies numbers about twice as long as the last, for about 2.5× the time.
    progress.report(DOUBLING_SHARE * 2.5 ** (step - steps), 'fast doubling');
  });
  progress.checkStop();
  progress.report(DOUBLING_SHARE, 'converting to decimal');
  const decimal = value.toString();
  progress.checkStop();
  progress.report(CONVERSION_DONE, 'hashing');
  const result: FibonacciResult = {
    n,
    digits: decimal.length,
    head: decimal.slice(0, FIBONACCI_EDGE_DIGITS),
    tail: decimal.slice(-FIBONACCI_EDGE_DIGITS),
    sha256: createHash('sha256').update(decimal).digest('hex'),
  };
  if (decimal.length <= FIBONACCI_LIMITS.maxInlineDigits) result.value = decimal;
  progress.report(1, 'done');
  return { result, decimal };
}
