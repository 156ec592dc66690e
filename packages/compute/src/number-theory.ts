// Cheap number theory for the verifier and the kernels' edge cases: primality, small sieves, known
// values of π(x) and proven bounds around them, Fibonacci numbers modulo m and their leading digits.

// ---- primes ----

/** Primes up to `limit` (inclusive) by a plain sieve; for small limits only (memory is one byte per number). */
export function primesUpTo(limit: number): number[] {
  if (limit < 2) return [];
  const isComposite = new Uint8Array(limit + 1);
  const primes: number[] = [];
  for (let candidate = 2; candidate <= limit; candidate++) {
    if (isComposite[candidate] === 1) continue;
    primes.push(candidate);
    for (let multiple = candidate * candidate; multiple <= limit; multiple += candidate) {
      isComposite[multiple] = 1;
    }
  }
  return primes;
}

const TRIAL_DIVISION_PRIMES = primesUpTo(100);
/** A number below 101² with no prime factor below 100 is prime. */
const TRIAL_DIVISION_DECIDES_BELOW = 101 * 101;
/** Products of two residues below this bound are exact in float64 (2^53). */
const NUMBER_MULTIPLY_SAFE_BELOW = 94_906_265;
/** Bases 2..13 decide every n below this bound (Jaeschke 1993); the first 12 primes every n < 2^64. */
const SIX_BASES_DECIDE_BELOW = 3_474_749_660_383;
const SIX_BASES = [2, 3, 5, 7, 11, 13];
const TWELVE_BASES = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];

function powerModuloNumber(base: number, exponent: number, modulus: number): number {
  let result = 1;
  let square = base % modulus;
  let remaining = exponent;
  while (remaining > 0) {
    if (remaining % 2 === 1) result = (result * square) % modulus;
    square = (square * square) % modulus;
    remaining = Math.floor(remaining / 2);
  }
  return result;
}

function powerModuloBigInt(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  let square = base % modulus;
  let remaining = exponent;
  while (remaining > 0n) {
    if ((remaining & 1n) === 1n) result = (result * square) % modulus;
    square = (square * square) % modulus;
    remaining >>= 1n;
  }
  return result;
}

function isStrongProbablePrime(n: number, base: number, odd: number, twos: number): boolean {
  if (n < NUMBER_MULTIPLY_SAFE_BELOW) {
    let x = powerModuloNumber(base, odd, n);
    if (x === 1 || x === n - 1) return true;
    for (let round = 1; round < twos; round++) {
      x = (x * x) % n;
      if (x === n - 1) return true;
    }
    return false;
  }
  const bigN = BigInt(n);
  const minusOne = bigN - 1n;
  let x = powerModuloBigInt(BigInt(base), BigInt(odd), bigN);
  if (x === 1n || x === minusOne) return true;
  for (let round = 1; round < twos; round++) {
    x = (x * x) % bigN;
    if (x === minusOne) return true;
  }
  return false;
}

/**
 * Deterministic primality for any safe integer: trial division by the primes below 100, then
 * Miller–Rabin with bases that are proven to decide every n below 2^64.
 */
export function isPrime(n: number): boolean {
  if (!Number.isSafeInteger(n) || n < 2) return false;
  for (const prime of TRIAL_DIVISION_PRIMES) {
    if (n === prime) return true;
    if (n % prime === 0) return false;
  }
  if (n < TRIAL_DIVISION_DECIDES_BELOW) return true;
  let odd = n - 1;
  let twos = 0;
  while (odd % 2 === 0) {
    odd /= 2;
    twos++;
  }
  const bases = n < SIX_BASES_DECIDE_BELOW ? SIX_BASES : TWELVE_BASES;
  return bases.every((base) => isStrongProbablePrime(n, base, odd, twos));
}

/**
 * π(x) at the values the verifier knows exactly (OEIS A006880 for the powers of ten; the others
 * were also counted with this package's sieve).
 */
export const KNOWN_PRIME_COUNTS: ReadonlyMap<number, number> = new Map([
  [10, 4],
  [100, 25],
  [1_000, 168],
  [10_000, 1_229],
  [100_000, 9_592],
  [1_000_000, 78_498],
  [10_000_000, 664_579],
  [100_000_000, 5_761_455],
  [1_000_000_000, 50_847_534],
  [10_000_000_000, 455_052_511],
  [100_000_000_000, 4_118_054_813],
  [2 ** 31, 105_097_565],
  [2 ** 32, 203_280_221],
]);

const EULER_MASCHERONI = 0.5772156649015329;

/** The logarithmic integral li(x) for x > 1, by Ramanujan's series (relative error ~1e-15 for x ≤ 10^12). */
export function logarithmicIntegral(x: number): number {
  const logX = Math.log(x);
  let sum = 0;
  let term = 1; // (-1)^(n-1) (ln x)^n / (n! 2^(n-1)) built up term by term
  let innerSum = 0;
  for (let n = 1; n < 1000; n++) {
    term *= n === 1 ? logX : -logX / (2 * n);
    if (n % 2 === 1) innerSum += 1 / n;
    const contribution = term * innerSum;
    sum += contribution;
    if (n > logX && Math.abs(contribution) < 1e-17 * Math.abs(sum)) break;
  }
  return EULER_MASCHERONI + Math.log(logX) + Math.sqrt(x) * sum;
}

/**
 * Proven bounds on π(x) for 2657 ≤ x ≤ 10^19, as integers `lower ≤ π(x) ≤ upper`:
 *  - π(x) < li(x) for 2 ≤ x ≤ 10^19 (Büthe, Math. Comp. 2018);
 *  - li(x) − π(x) < √x·ln(x) / (8π) (Schoenfeld's bound, which under the Riemann hypothesis holds for
 *    every x ≥ 2657; proven unconditionally for 2657 ≤ x ≤ 1.1·10^26 by Johnston, Ramanujan J. 2022);
 *  - π(x) ≥ x / (ln x − 1) for x ≥ 5393 and π(x) ≤ x / (ln x − 1.1) for x ≥ 60184 (Dusart 2010).
 * At 10^9 the window is about 26 000 wide around 50 847 534, at 10^11 about 320 000.
 * A margin of 1 absorbs the float rounding of li(x) (its absolute error is below 10^-4 here).
 */
export function primeCountBounds(x: number): { lower: number; upper: number } {
  if (x < 2657 || x > 1e19) throw new RangeError('bounds are proven for 2657 ≤ x ≤ 10^19 only');
  const logX = Math.log(x);
  const li = logarithmicIntegral(x);
  let lower = li - (Math.sqrt(x) * logX) / (8 * Math.PI);
  let upper = li;
  if (x >= 5393) lower = Math.max(lower, x / (logX - 1));
  if (x >= 60184) upper = Math.min(upper, x / (logX - 1.1));
  return { lower: Math.ceil(lower - 1), upper: Math.floor(upper + 1) };
}

// ---- Fibonacci ----

/**
 * [F(n), F(n+1)] exactly, by fast doubling over the bits of n (O(log n) big multiplications).
 * `beforeStep(step, steps)` runs before each doubling step (the kernel polls for stops there).
 */
export function fibonacciPair(
  n: number,
  beforeStep?: (step: number, steps: number) => void,
): [bigint, bigint] {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError('n must be a non-negative integer');
  let current = 0n; // F(k)
  let next = 1n; // F(k+1)
  const bits = n.toString(2);
  for (let step = 0; step < bits.length; step++) {
    beforeStep?.(step, bits.length);
    const bit = bits[step];
    // k -> 2k: F(2k) = F(k)(2F(k+1) - F(k)), F(2k+1) = F(k)^2 + F(k+1)^2
    const doubled = current * (2n * next - current);
    const doubledNext = current * current + next * next;
    if (bit === '1') {
      current = doubledNext;
      next = doubled + doubledNext;
    } else {
      current = doubled;
      next = doubledNext;
    }
  }
  return [current, next];
}

/** F(n) mod `modulus` by fast doubling with every intermediate reduced (cheap for any n). */
export function fibonacciModulo(n: number, modulus: bigint): bigint {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError('n must be a non-negative integer');
  let current = 0n;
  let next = 1n;
  for (const bit of n.toString(2)) {
    const doubled = (current * ((2n * next - current + modulus) % modulus)) % modulus;
    const doubledNext = (current * current + next * next) % modulus;
    if (bit === '1') {
      current = doubledNext;
      next = (doubled + doubledNext) % modulus;
    } else {
      current = doubled;
      next = doubledNext;
    }
  }
  return current % modulus;
}

/** A positive decimal float `mantissa · 10^exponent` whose mantissa keeps PRECISION digits. */
interface DecimalFloat {
  mantissa: bigint;
  exponent: number;
}

const PRECISION = 110;
const PRECISION_SCALE = 10n ** BigInt(PRECISION);

function normalize(value: DecimalFloat): DecimalFloat {
  const excess = value.mantissa.toString().length - PRECISION;
  if (excess <= 0) return value;
  return {
    mantissa: value.mantissa / 10n ** BigInt(excess),
    exponent: value.exponent + excess,
  };
}

function multiply(left: DecimalFloat, right: DecimalFloat): DecimalFloat {
  return normalize({
    mantissa: left.mantissa * right.mantissa,
    exponent: left.exponent + right.exponent,
  });
}

function integerSquareRoot(value: bigint): bigint {
  if (value < 2n) return value;
  // Newton's iteration from above (2^ceil(bits/2) ≥ √value) decreases to the floor of the root.
  let estimate = 1n << BigInt(Math.ceil(value.toString(2).length / 2));
  for (;;) {
    const better = (estimate + value / estimate) >> 1n;
    if (better >= estimate) return estimate;
    estimate = better;
  }
}

/** Digits of φ^n/√5 this method guarantees (the result's head carries 50). */
export const FIBONACCI_LEADING_DIGITS_PRECISION = 90;

/**
 * The decimal digit count and the leading digits of F(n) for n ≥ 300, from φ^n/√5 in 110-digit decimal
 * floating point (relative error below 10^-100 for n ≤ 10^7, whose 24 squarings lose at most one digit
 * each), without computing F(n). F(n) = φ^n/√5 − ψ^n/√5 with |ψ^n/√5| < 10^-62 here, so its leading digits are those
 * of φ^n/√5 unless the digits that follow are a run of nines or zeros longer than the error: then
 * `candidates` holds both readings (lower and upper bound of the error interval).
 */
export function fibonacciLeadingDigits(
  n: number,
  count: number,
): { candidates: { digits: number; leading: string }[] } {
  // Below 300 the dropped term ψ^n/√5 is not negligible against 90 digits; compute such F(n) exactly.
  if (n < 300) throw new RangeError('n must be at least 300');
  if (count > FIBONACCI_LEADING_DIGITS_PRECISION) throw new RangeError('too many digits asked');
  const rootFive = integerSquareRoot(5n * PRECISION_SCALE * PRECISION_SCALE); // √5 · 10^110
  const phi: DecimalFloat = normalize({
    mantissa: (PRECISION_SCALE + rootFive) / 2n,
    exponent: -PRECISION,
  });
  const inverseRootFive: DecimalFloat = normalize({
    mantissa: rootFive / 5n,
    exponent: -PRECISION,
  });
  let power: DecimalFloat = { mantissa: 1n, exponent: 0 };
  for (const bit of n.toString(2)) {
    power = multiply(power, power);
    if (bit === '1') power = multiply(power, phi);
  }
  const value = multiply(power, inverseRootFive);
  // Every step truncates: the true value lies within a relative 10^-100 of `value`; widen to 10^-95.
  const slack = value.mantissa / 10n ** 95n + 1n;
  const readings = [value.mantissa - slack, value.mantissa + slack].map((mantissa) => {
    const text = mantissa.toString();
    return { digits: text.length + value.exponent, leading: text.slice(0, count) };
  });
  const unique = readings.filter(
    (reading, index) =>
      readings.findIndex(
        (other) => other.digits === reading.digits && other.leading === reading.leading,
      ) === index,
  );
  return { candidates: unique };
}
