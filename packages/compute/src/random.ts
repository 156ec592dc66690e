// Seeded pseudo-random numbers that every machine reproduces bit for bit: the agent generates the
// matrices of a seeded matrix_multiply job and the challenge vector of its lease, and the server
// generates the same numbers to check the result. Only 32-bit integer operations (Math.imul, shifts)
// and exact float64 scaling are used, so the output does not depend on the CPU or the JS engine.
//
// Generator: xoshiro128** (Blackman and Vigna), its 128-bit state filled by splitmix32 from a mix of
// the seed's low and high 32-bit words and a hash of a salt string. The salt separates streams drawn
// from the same seed ('a' and 'b' for the two matrices, 'challenge' for the challenge vector).

const TWO_POW_26 = 2 ** 26;
const TWO_POW_32 = 2 ** 32;
const TWO_POW_52 = 2 ** 52;
const TWO_POW_53 = 2 ** 53;

/** Salts of the streams this package draws; a stream never reuses another's salt. */
export const RANDOM_SALTS = {
  matrixA: 'a',
  matrixB: 'b',
  challenge: 'challenge',
  freivalds: 'freivalds',
} as const;

/** murmur3's 32-bit finaliser: every input bit affects every output bit. */
function mix32(value: number): number {
  let z = value | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/** FNV-1a over the UTF-16 code units of the salt. */
function hashSalt(salt: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < salt.length; index++) {
    hash = Math.imul(hash ^ salt.charCodeAt(index), 0x01000193);
  }
  return hash >>> 0;
}

function rotateLeft(value: number, shift: number): number {
  return (value << shift) | (value >>> (32 - shift));
}

/**
 * xoshiro128** seeded from any safe integer (negative and above 2^32 included: the seed is read
 * as its two's-complement 64-bit words) and a salt.
 */
export class SeededRandom {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;

  constructor(seed: number, salt = '') {
    if (!Number.isSafeInteger(seed)) {
      throw new RangeError(`seed must be a safe integer, got ${String(seed)}`);
    }
    const low = seed >>> 0;
    const high = Math.floor(seed / TWO_POW_32) >>> 0;
    let state = mix32(low ^ 0x243f6a88);
    state = mix32(state ^ high ^ 0x85a308d3);
    state = mix32(state ^ hashSalt(salt));
    // splitmix32 fills the four state words; xoshiro must not start from all zeros.
    const words: number[] = [];
    for (let index = 0; index < 4; index++) {
      state = (state + 0x9e3779b9) | 0;
      words.push(mix32(state));
    }
    this.s0 = words[0] ?? 0;
    this.s1 = words[1] ?? 0;
    this.s2 = words[2] ?? 0;
    this.s3 = words[3] ?? 0;
    if ((this.s0 | this.s1 | this.s2 | this.s3) === 0) this.s0 = 1;
  }

  /** The next 32 random bits as an unsigned integer. */
  nextUint32(): number {
    const result = Math.imul(rotateLeft(Math.imul(this.s1, 5), 7), 9) >>> 0;
    const shifted = this.s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= shifted;
    this.s3 = rotateLeft(this.s3, 11);
    return result;
  }

  /** A 53-bit integer in [0, 2^53), from the high bits of two draws. */
  private nextUint53(): number {
    const high = this.nextUint32() >>> 5; // 27 bits
    const low = this.nextUint32() >>> 6; // 26 bits
    return high * TWO_POW_26 + low;
  }

  /** Uniform in [0, 1) on the grid k / 2^53 (exact in float64). */
  nextUnit(): number {
    return this.nextUint53() / TWO_POW_53;
  }

  /** Uniform in [-1, 1) on the grid k / 2^52 (exact in float64). */
  nextSigned(): number {
    return (this.nextUint53() - TWO_POW_52) / TWO_POW_52;
  }
}

/**
 * The challenge vector r of a lease: `length` entries uniform in [-1, 1) (multiples of 2^-52),
 * drawn from `seed` with the salt 'challenge'. matrix_multiply results carry C·r, which the server
 * compares with A·(B·r).
 */
export function challengeVector(seed: number, length: number): Float64Array {
  const random = new SeededRandom(seed, RANDOM_SALTS.challenge);
  const vector = new Float64Array(length);
  for (let index = 0; index < length; index++) vector[index] = random.nextSigned();
  return vector;
}

/**
 * A rows x cols matrix, row-major, entries uniform in [-1, 1), drawn from `seed` with `salt`
 * ('a' for A, 'b' for B of a seeded matrix_multiply job). Entries are drawn row by row, so
 * `forEachGeneratedRow` streams the same numbers without holding the matrix.
 */
export function generateMatrix(
  seed: number,
  rows: number,
  cols: number,
  salt: string,
  into: Float64Array = new Float64Array(rows * cols),
): Float64Array {
  if (into.length < rows * cols) throw new RangeError('target array is too small');
  const random = new SeededRandom(seed, salt);
  const count = rows * cols;
  for (let index = 0; index < count; index++) into[index] = random.nextSigned();
  return into;
}

/**
 * Calls `visit` with each row of the matrix `generateMatrix(seed, rows, cols, salt)` in order,
 * reusing one row buffer: O(cols) memory whatever the size.
 */
export function forEachGeneratedRow(
  seed: number,
  rows: number,
  cols: number,
  salt: string,
  visit: (row: Float64Array, rowIndex: number) => void,
): void {
  const random = new SeededRandom(seed, salt);
  const row = new Float64Array(cols);
  for (let rowIndex = 0; rowIndex < rows; rowIndex++) {
    for (let col = 0; col < cols; col++) row[col] = random.nextSigned();
    visit(row, rowIndex);
  }
}
