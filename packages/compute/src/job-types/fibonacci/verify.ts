// fibonacci's own checks of a result, before its proof (proof.ts).
import { createHash } from 'node:crypto';
import { FIBONACCI_LIMITS, type FibonacciResult } from '@fabric/contract';
import { FIBONACCI_EDGE_DIGITS } from '../../constants.ts';
import { fibonacciLeadingDigits, fibonacciModulo, fibonacciPair } from '../../number-theory.ts';
import type { ResolvedFibonacciParams } from '../../params.ts';
import { fail, ok, type VerificationOutcome } from '../../verification.ts';

/** Up to this n the verifier computes F(n) whole and compares every field exactly. */
export const FIBONACCI_EXACT_CHECK_MAX_N = 100_000;

function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function verifyFibonacci(
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
