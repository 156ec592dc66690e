import { describe, expect, it } from 'vitest';
import { describeWait } from './clock.ts';

describe('describeWait', () => {
  it.each([
    [0.2, '1 second'],
    [1, '1 second'],
    [45, '45 seconds'],
    [59.1, '1 minute'],
    [60, '1 minute'],
    [61, '2 minutes'],
    [14 * 60 + 1, '15 minutes'],
  ])('says %s seconds as "%s"', (seconds, words) => {
    expect(describeWait(seconds)).toBe(words);
  });
});
