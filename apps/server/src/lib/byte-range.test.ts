import { describe, expect, it } from 'vitest';
import { parseByteRange } from './byte-range.ts';

describe('parseByteRange', () => {
  it('reads the three forms of one bytes range', () => {
    expect(parseByteRange('bytes=10-99', 1000)).toEqual({ start: 10, end: 99 });
    expect(parseByteRange('bytes=10-', 1000)).toEqual({ start: 10, end: 999 });
    expect(parseByteRange('bytes=-100', 1000)).toEqual({ start: 900, end: 999 });
    expect(parseByteRange('bytes=990-2000', 1000)).toEqual({ start: 990, end: 999 });
    expect(parseByteRange('bytes=-5000', 1000)).toEqual({ start: 0, end: 999 });
  });

  it('sends the whole file for no header, other units, several ranges or a reversed one', () => {
    for (const header of [undefined, 'items=0-1', 'bytes=0-1,5-6', 'bytes=-', 'bytes=9-3', 'x']) {
      expect(parseByteRange(header, 1000)).toBeUndefined();
    }
  });

  it('says when a range starts past the end', () => {
    expect(parseByteRange('bytes=1000-', 1000)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=-0', 1000)).toBe('unsatisfiable');
  });
});
