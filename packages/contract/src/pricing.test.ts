import { describe, expect, it } from 'vitest';
import { JOB_HOLD_MICROS, providerShareMicros, usageCostMicros } from './pricing.ts';

describe('pricing', () => {
  it('holds $2.40, the Submit page estimate', () => {
    expect(JOB_HOLD_MICROS).toBe(2_400_000);
  });

  it('charges $0.01 per completed job plus $0.002 per CPU-second, in whole micro-dollars', () => {
    expect(usageCostMicros('fibonacci', 0, { includesJobFee: true })).toBe(10_000);
    expect(usageCostMicros('fibonacci', 5000, { includesJobFee: true })).toBe(20_000);
    expect(usageCostMicros('prime_sieve', 1500, { includesJobFee: false })).toBe(3000);
    expect(usageCostMicros('matrix_multiply', 0.6, { includesJobFee: false })).toBe(2);
  });

  it('never charges more than the hold, nor less than nothing', () => {
    expect(usageCostMicros('matrix_multiply', 7_200_000, { includesJobFee: true })).toBe(
      JOB_HOLD_MICROS,
    );
    expect(usageCostMicros('matrix_multiply', -50, { includesJobFee: false })).toBe(0);
  });

  it('gives the provider 80% rounded down, so shares never exceed charges', () => {
    expect(providerShareMicros(10_200)).toBe(8160);
    expect(providerShareMicros(3)).toBe(2);
    expect(providerShareMicros(0)).toBe(0);
    for (let charge = 0; charge < 2000; charge += 7) {
      const share = providerShareMicros(charge);
      expect(Number.isInteger(share)).toBe(true);
      expect(share).toBeLessThanOrEqual(charge);
      expect(charge - share).toBeGreaterThanOrEqual(0);
    }
  });
});
