import { describe, expect, it } from 'vitest';
import { SeededRandom, challengeVector, forEachGeneratedRow, generateMatrix } from './random.ts';

describe('SeededRandom', () => {
  it('repeats the same sequence for the same seed and salt', () => {
    const first = new SeededRandom(42, 'a');
    const second = new SeededRandom(42, 'a');
    const drawsFirst = Array.from({ length: 100 }, () => first.nextUint32());
    const drawsSecond = Array.from({ length: 100 }, () => second.nextUint32());
    expect(drawsFirst).toEqual(drawsSecond);
  });

  it('pins the first outputs so that every machine and version draws the same numbers', () => {
    const random = new SeededRandom(1, 'a');
    const draws = Array.from({ length: 4 }, () => random.nextUint32());
    expect(draws).toEqual([1489618933, 746841340, 3680847509, 4247533006]);
  });

  it('separates streams by salt and by every word of the seed', () => {
    const draw = (seed: number, salt: string) => new SeededRandom(seed, salt).nextUint32();
    const values = new Set([
      draw(1, 'a'),
      draw(1, 'b'),
      draw(2, 'a'),
      draw(1 + 2 ** 32, 'a'),
      draw(-1, 'a'),
      draw(2 ** 32 - 1, 'a'),
      draw(0, 'a'),
    ]);
    expect(values.size).toBe(7);
  });

  it('refuses seeds that are not safe integers', () => {
    expect(() => new SeededRandom(1.5)).toThrow(RangeError);
    expect(() => new SeededRandom(2 ** 60)).toThrow(RangeError);
  });

  it('draws signed values in [-1, 1) and unit values in [0, 1) with a mean near the middle', () => {
    const random = new SeededRandom(7, 'test');
    let signedSum = 0;
    let unitSum = 0;
    let lowest = Infinity;
    let highest = -Infinity;
    let lowestUnit = Infinity;
    let highestUnit = -Infinity;
    const draws = 100_000;
    for (let index = 0; index < draws; index++) {
      const signed = random.nextSigned();
      const unit = random.nextUnit();
      lowest = Math.min(lowest, signed);
      highest = Math.max(highest, signed);
      lowestUnit = Math.min(lowestUnit, unit);
      highestUnit = Math.max(highestUnit, unit);
      signedSum += signed;
      unitSum += unit;
    }
    expect(lowest).toBeGreaterThanOrEqual(-1);
    expect(highest).toBeLessThan(1);
    expect(lowestUnit).toBeGreaterThanOrEqual(0);
    expect(highestUnit).toBeLessThan(1);
    // Standard error of the mean is about 0.002 (signed) and 0.001 (unit): 5 sigma bounds.
    expect(Math.abs(signedSum / draws)).toBeLessThan(0.01);
    expect(Math.abs(unitSum / draws - 0.5)).toBeLessThan(0.005);
  });
});

describe('challengeVector', () => {
  it('is deterministic, has the asked length and entries in [-1, 1)', () => {
    const vector = challengeVector(123, 50);
    expect(vector).toHaveLength(50);
    expect(Array.from(vector)).toEqual(Array.from(challengeVector(123, 50)));
    for (const entry of vector) {
      expect(entry).toBeGreaterThanOrEqual(-1);
      expect(entry).toBeLessThan(1);
    }
  });

  it('is a prefix of the longer vector for the same seed, and differs between seeds', () => {
    expect(Array.from(challengeVector(5, 10))).toEqual(
      Array.from(challengeVector(5, 20)).slice(0, 10),
    );
    expect(Array.from(challengeVector(5, 10))).not.toEqual(Array.from(challengeVector(6, 10)));
  });
});

describe('generateMatrix', () => {
  it('fills rows x cols entries row by row, the same as forEachGeneratedRow streams them', () => {
    const matrix = generateMatrix(9, 3, 4, 'a');
    expect(matrix).toHaveLength(12);
    const streamed: number[] = [];
    forEachGeneratedRow(9, 3, 4, 'a', (row) => streamed.push(...row));
    expect(streamed).toEqual(Array.from(matrix));
  });

  it('draws A and B of one seed from different streams', () => {
    expect(Array.from(generateMatrix(1, 4, 4, 'a'))).not.toEqual(
      Array.from(generateMatrix(1, 4, 4, 'b')),
    );
  });

  it('fills a caller-provided view such as one over a SharedArrayBuffer', () => {
    const shared = new Float64Array(new SharedArrayBuffer(8 * 6));
    generateMatrix(3, 2, 3, 'b', shared);
    expect(Array.from(shared)).toEqual(Array.from(generateMatrix(3, 2, 3, 'b')));
    expect(() => generateMatrix(3, 4, 4, 'b', shared)).toThrow(RangeError);
  });
});
