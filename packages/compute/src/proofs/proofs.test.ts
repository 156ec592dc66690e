import { describe, expect, it } from 'vitest';
import { computeFibonacci } from '../job-types/fibonacci/kernel.ts';
import { computeMatrixProduct } from '../job-types/matrix-multiply/kernel.ts';
import { countPrimesWithSpans } from '../job-types/prime-sieve/kernel.ts';
import { parseMatrixParams } from '../params.ts';
import {
  guessedPrimeSieveCheat,
  paddedFibonacciCheat,
  projectedMatrixCheat,
} from '../testing/cheats.ts';
import { drawChallenge, openChallenge, verifyCommittedResult, type ProofWitness } from './index.ts';
import { commitMatrixProduct } from '../job-types/matrix-multiply/proof.ts';
import { leafHash, merkleLevels, merklePath, merkleRootHex, verifyMerklePath } from './merkle.ts';
import { decimalModulo } from '../job-types/fibonacci/proof.ts';

/** A seeded stand-in for crypto.randomInt, so a test can choose what the challenge hits. */
function seededRandomInt(seed: number) {
  let state = seed >>> 0;
  return (max: number) => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state % max;
  };
}

/** The whole protocol as the server runs it, with the challenge drawn from `randomInt`. */
function proveAndVerify(
  jobType: 'matrix_multiply' | 'prime_sieve' | 'fibonacci',
  params: Record<string, unknown>,
  output: { result: object; commitment: object; witness: ProofWitness },
  randomInt = seededRandomInt(1),
  challengeSeed = 5,
) {
  const challenge = drawChallenge(jobType, params, randomInt);
  return verifyCommittedResult(jobType, params, output.result, challengeSeed, {
    commitment: output.commitment,
    challenge,
    opening: openChallenge(output.witness, challenge),
  });
}

/** The reason of a refusal ('accepted' when the verdict was ok). */
function refusal(verdict: { ok: true } | { ok: false; reason: string }): string {
  return verdict.ok ? 'accepted' : verdict.reason;
}

describe('merkle tree', () => {
  it('proves every leaf of trees of 1 to 9 leaves, and nothing else', () => {
    for (let count = 1; count <= 9; count++) {
      const leaves = Array.from({ length: count }, (_, index) => leafHash(Uint8Array.of(index)));
      const levels = merkleLevels(leaves);
      const root = merkleRootHex(levels);
      for (let index = 0; index < count; index++) {
        const path = merklePath(levels, index);
        expect(verifyMerklePath(leaves[index] as Uint8Array, index, count, path, root)).toBe(true);
        const other = (index + 1) % count;
        if (other !== index) {
          expect(verifyMerklePath(leaves[other] as Uint8Array, index, count, path, root)).toBe(
            false,
          );
        }
        expect(
          verifyMerklePath(
            leaves[index] as Uint8Array,
            index,
            count,
            [...path, path[0] ?? 'a'.repeat(64)],
            root,
          ),
        ).toBe(false);
      }
    }
  });
});

describe('matrix_multiply proof', () => {
  const params = { size: 96, seed: 3 };
  const resolved = parseMatrixParams(params);

  function honest() {
    const { result, c } = computeMatrixProduct(resolved, {}, 5);
    return { result, ...commitMatrixProduct(c, resolved.rows, resolved.cols) };
  }

  it('accepts the honest product, for any challenge', () => {
    const output = honest();
    for (let seed = 1; seed <= 5; seed++) {
      expect(proveAndVerify('matrix_multiply', params, output, seededRandomInt(seed))).toEqual({
        ok: true,
      });
    }
  });

  it('refuses a result built from A·(B·r) and (1ᵀA)(B·1) without the product', () => {
    // C·r and the checksum are right, but no C was computed: whatever the cheat commits to (a zero
    // matrix), the opened rows are not rows of A·B.
    const verdict = proveAndVerify('matrix_multiply', params, projectedMatrixCheat(params, 5));
    expect(refusal(verdict)).toMatch(/row \d+ of C differs from A·B/);
  });

  it('refuses a product with one wrong row when the challenge opens it', () => {
    const { result, c } = computeMatrixProduct(resolved, {}, 5);
    const wrongRow = 17;
    c[wrongRow * resolved.cols + 3] = (c[wrongRow * resolved.cols + 3] ?? 0) + 1e-6;
    const cheat = { result, ...commitMatrixProduct(c, resolved.rows, resolved.cols) };
    // Challenges that open row 17, and one that does not (one wrong row in 96 is found 4 times in
    // 96 on average: the cheat saved 1/96 of the work and risks 4/96 of its pay).
    let caught = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const challenge = drawChallenge('matrix_multiply', params, seededRandomInt(seed));
      const opensWrongRow = (challenge.rows as number[]).includes(wrongRow);
      const verdict = verifyCommittedResult('matrix_multiply', params, cheat.result, 5, {
        commitment: cheat.commitment,
        challenge,
        opening: openChallenge(cheat.witness, challenge),
      });
      expect(verdict.ok).toBe(!opensWrongRow);
      if (opensWrongRow) caught++;
    }
    expect(caught).toBeGreaterThan(0);
  });

  it('refuses rows that are not the ones committed to, or not the ones asked for', () => {
    const output = honest();
    const challenge = drawChallenge('matrix_multiply', params, seededRandomInt(2));
    const opening = openChallenge(output.witness, challenge) as {
      rows: { index: number; data: string; path: string[] }[];
    };
    const swapped = { rows: [...opening.rows].reverse() };
    expect(
      refusal(
        verifyCommittedResult('matrix_multiply', params, output.result, 5, {
          commitment: output.commitment,
          challenge,
          opening: swapped,
        }),
      ),
    ).toMatch(/where the challenge asked/);
    const [first, ...rest] = opening.rows;
    if (!first) throw new Error('no rows opened');
    const otherRow = Buffer.from(new Float64Array(resolved.cols).fill(0.5).buffer).toString(
      'base64',
    );
    expect(
      refusal(
        verifyCommittedResult('matrix_multiply', params, output.result, 5, {
          commitment: output.commitment,
          challenge,
          opening: { rows: [{ ...first, data: otherRow }, ...rest] },
        }),
      ),
    ).toMatch(/not the row committed to/);
  });

  it('opens rows bit for bit: a committed -0 verifies (JSON would have made it 0)', () => {
    const inline = { a: [[-1]], b: [[0]] };
    const c = Float64Array.of(-0);
    const { result } = computeMatrixProduct(parseMatrixParams(inline), {}, 5);
    const output = { result, ...commitMatrixProduct(c, 1, 1) };
    expect(proveAndVerify('matrix_multiply', inline, output)).toEqual({ ok: true });
  });
});

describe('prime_sieve proof', () => {
  const limit = 123_456_789;
  const honest = countPrimesWithSpans({ limit });
  const honestOutput = {
    result: honest.result,
    commitment: { segment_counts: honest.spanCounts },
    witness: { kind: 'prime_sieve' as const },
  };

  it('accepts honest span counts', () => {
    expect(honest.spanCounts).toHaveLength(Math.ceil((limit + 1) / 2 ** 24));
    expect(proveAndVerify('prime_sieve', { limit }, honestOutput)).toEqual({ ok: true });
  });

  it('refuses a count guessed inside the analytic window, whatever the spans say', () => {
    const cheat = guessedPrimeSieveCheat({ limit });
    for (let seed = 1; seed <= 5; seed++) {
      expect(
        refusal(proveAndVerify('prime_sieve', { limit }, cheat, seededRandomInt(seed))),
      ).toMatch(/holds \d+ primes, the commitment says/);
    }
  });

  it('refuses spans that do not add up to the count, or are too few', () => {
    const short = { ...honestOutput, commitment: { segment_counts: honest.spanCounts.slice(1) } };
    expect(refusal(proveAndVerify('prime_sieve', { limit }, short))).toMatch(/entries, expected/);
    const counts = [...honest.spanCounts];
    counts[0] = (counts[0] ?? 0) + 1;
    const overCounted = { ...honestOutput, commitment: { segment_counts: counts } };
    expect(refusal(proveAndVerify('prime_sieve', { limit }, overCounted))).toMatch(/add up to/);
  });
});

describe('fibonacci proof', () => {
  const n = 150_000;

  it('opens the whole value above the exact-check bound and accepts it', () => {
    const { result, decimal } = computeFibonacci({ n });
    const output = { result, commitment: {}, witness: { kind: 'fibonacci' as const, decimal } };
    expect(proveAndVerify('fibonacci', { n }, output)).toEqual({ ok: true });
  });

  it('refuses the right digit count, head and tail around a made-up middle', () => {
    const cheat = paddedFibonacciCheat({ n });
    expect(refusal(proveAndVerify('fibonacci', { n }, cheat))).toMatch(/is not F\(150000\)/);
    // A made-up sha256 beside them cannot be opened at all.
    const unopenable = { ...cheat, result: { ...cheat.result, sha256: 'ab'.repeat(32) } };
    expect(refusal(proveAndVerify('fibonacci', { n }, unopenable))).toMatch(
      /does not hash to the committed sha256/,
    );
  });

  it('reduces a decimal string modulo a prime exactly', () => {
    const value = '98765432109876543210987654321';
    expect(decimalModulo(value, 1_000_000_007n)).toBe(BigInt(value) % 1_000_000_007n);
    expect(decimalModulo('5', 3n)).toBe(2n);
  });
});
