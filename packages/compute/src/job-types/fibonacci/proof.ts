// fibonacci: up to FIBONACCI_OPEN_VALUE_ABOVE_N the server computes F(n) itself and compares every
// field. Above it, the result's sha256 commits to a decimal value, and the agent opens that value
// whole (at most 2.1 MB); the server checks its hash, digit count, head and tail, and compares it
// with F(n) modulo a random prime near 2^52 drawn after the value arrived (F(n) mod p costs
// O(log n) small steps). A wrong value passes only if the prime divides its difference from F(n):
// about one chance in 10^9 for the largest n.
import { createHash, randomInt as cryptoRandomInt } from 'node:crypto';
import {
  FIBONACCI_OPEN_VALUE_ABOVE_N,
  type FibonacciChallenge,
  type FibonacciOpening,
  type FibonacciResult,
} from '@fabric/contract';
import { FIBONACCI_EDGE_DIGITS } from '../../constants.ts';
import type { VerificationOutcome } from '../../verification.ts';
import { fibonacciModulo, isPrime } from '../../number-theory.ts';
import type { ResolvedFibonacciParams } from '../../params.ts';

export interface FibonacciWitness {
  kind: 'fibonacci';
  decimal: string;
}

export function drawFibonacciChallenge(params: ResolvedFibonacciParams): FibonacciChallenge {
  return { open_value: params.n > FIBONACCI_OPEN_VALUE_ABOVE_N };
}

export function openFibonacci(
  witness: FibonacciWitness,
  challenge: FibonacciChallenge,
): FibonacciOpening {
  return challenge.open_value ? { value: witness.decimal } : {};
}

/** A random prime in [2^52, 2^53): products stay exact as BigInt, and residues fit a number. */
export function randomModulusPrime(randomInt: (max: number) => number = cryptoRandomInt): bigint {
  for (;;) {
    const high = randomInt(2 ** 26);
    const low = randomInt(2 ** 26);
    const candidate = 2 ** 52 + high * 2 ** 26 + low;
    if (candidate % 2 === 1 && isPrime(candidate)) return BigInt(candidate);
  }
}

/** A decimal string modulo `modulus`, 15 digits at a time. */
export function decimalModulo(decimal: string, modulus: bigint): bigint {
  const step = 15;
  const scale = 10n ** BigInt(step);
  const headLength = decimal.length % step;
  let residue = headLength > 0 ? BigInt(decimal.slice(0, headLength)) % modulus : 0n;
  for (let offset = headLength; offset < decimal.length; offset += step) {
    residue = (residue * scale + BigInt(decimal.slice(offset, offset + step))) % modulus;
  }
  return residue;
}

const fail = (reason: string): VerificationOutcome => ({ ok: false, reason });

export function verifyFibonacciOpening(
  params: ResolvedFibonacciParams,
  result: FibonacciResult,
  challenge: FibonacciChallenge,
  opening: FibonacciOpening,
  randomInt?: (max: number) => number,
): VerificationOutcome {
  const { n } = params;
  if (!challenge.open_value) {
    return opening.value === undefined ? { ok: true } : fail('value was opened but not asked for');
  }
  const { value } = opening;
  if (value === undefined)
    return fail(`the challenge asked for the value of F(${n}); none was opened`);
  if (value.length !== result.digits) {
    return fail(`the opened value has ${value.length} digits, the result says ${result.digits}`);
  }
  if (value.length > 1 && value.startsWith('0')) return fail('the opened value has a leading zero');
  if (createHash('sha256').update(value).digest('hex') !== result.sha256) {
    return fail('the opened value does not hash to the committed sha256');
  }
  if (
    value.slice(0, FIBONACCI_EDGE_DIGITS) !== result.head ||
    value.slice(-FIBONACCI_EDGE_DIGITS) !== result.tail
  ) {
    return fail('the head or tail is not that of the opened value');
  }
  const modulus = randomModulusPrime(randomInt);
  if (decimalModulo(value, modulus) !== fibonacciModulo(n, modulus)) {
    return fail(`the opened value is not F(${n}) (it differs modulo the prime ${modulus})`);
  }
  return { ok: true };
}
