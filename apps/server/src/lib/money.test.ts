import { describe, expect, it } from 'vitest';
import { dollarsToMicroDollars, formatMicroDollars, microDollarsToDollars } from './money.ts';

describe('money', () => {
  it.each([
    [0, '0.00'],
    [2_400_000, '2.40'],
    [5_000, '0.01'],
    [4_999, '0.00'],
    [123_456_789, '123.46'],
    [-1_500_000, '-1.50'],
    [-1, '0.00'],
  ])('formats %s micro-dollars as "%s"', (microDollars, text) => {
    expect(formatMicroDollars(microDollars)).toBe(text);
  });

  it('converts dollars to micro-dollars and back', () => {
    expect(dollarsToMicroDollars(2.4)).toBe(2_400_000);
    expect(microDollarsToDollars(2_400_000)).toBe(2.4);
  });
});
