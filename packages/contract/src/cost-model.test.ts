import { describe, expect, it } from 'vitest';
import { billableCpuMs, COST_MODEL_FIXED_MS, jobCostModel } from './cost-model.ts';

describe('job cost model', () => {
  it('grows with the params and has a fixed floor', () => {
    const small = jobCostModel('prime_sieve', { limit: 30 });
    const large = jobCostModel('prime_sieve', { limit: 100_000_000_000 });
    expect(small.cpuBudgetMs - COST_MODEL_FIXED_MS).toBeLessThanOrEqual(1);
    expect(large.referenceCpuMs).toBe(80_000);
    expect(large.cpuBudgetMs).toBe(482_000);
    expect(large.maxRuntimeMs).toBe(542_000);
    expect(jobCostModel('matrix_multiply', { size: 1024 }).referenceCpuMs).toBeGreaterThan(
      jobCostModel('matrix_multiply', {}).referenceCpuMs,
    );
    expect(jobCostModel('fibonacci', { n: 10_000_000 }).referenceCpuMs).toBe(1200);
  });

  it('bills nothing for types without a kernel, and ignores inherited keys', () => {
    expect(jobCostModel('llm_inference', {}).cpuBudgetMs).toBe(0);
    expect(jobCostModel('toString' as never, {}).cpuBudgetMs).toBe(0);
    const nothing = { params: {}, observedWallMs: 1e9, nodeCores: 4 };
    expect(billableCpuMs({ ...nothing, jobType: 'llm_inference', basis: 'verified_result' })).toBe(
      0,
    );
    expect(billableCpuMs({ ...nothing, jobType: 'llm_inference', basis: 'time_spent' })).toBe(0);
  });

  describe('a verified result is billed for the work its params need', () => {
    const job = {
      jobType: 'prime_sieve' as const,
      params: { limit: 100_000_000_000 },
      basis: 'verified_result' as const,
    };

    it('whatever time the device took beyond the work', () => {
      expect(billableCpuMs({ ...job, observedWallMs: 20_000, nodeCores: 4 })).toBe(80_000);
      expect(billableCpuMs({ ...job, observedWallMs: 1e9, nodeCores: 4 })).toBe(80_000);
    });

    it('but no more than the server saw the lease run on the allowed cores', () => {
      // 4 kernel cores + 1 for the runtime's threads.
      expect(billableCpuMs({ ...job, observedWallMs: 10_000, nodeCores: 4 })).toBe(50_000);
      // A device claiming a thousand cores is counted for at most 32 (+1).
      expect(billableCpuMs({ ...job, observedWallMs: 1000, nodeCores: 1000 })).toBe(33_000);
      // Fibonacci runs on one thread whatever the node offers.
      expect(
        billableCpuMs({
          jobType: 'fibonacci',
          params: { n: 10_000_000 },
          basis: 'verified_result',
          observedWallMs: 500,
          nodeCores: 8,
        }),
      ).toBe(1000);
      expect(billableCpuMs({ ...job, observedWallMs: -5, nodeCores: 0 })).toBe(0);
    });
  });

  it('a run without a result is billed its time on one core, at most the whole work', () => {
    const job = {
      jobType: 'prime_sieve' as const,
      params: { limit: 100_000_000_000 },
      basis: 'time_spent' as const,
      nodeCores: 8,
    };
    expect(billableCpuMs({ ...job, observedWallMs: 30_000 })).toBe(30_000);
    expect(billableCpuMs({ ...job, observedWallMs: 2 * 3_600_000 })).toBe(80_000);
    expect(billableCpuMs({ ...job, observedWallMs: -1 })).toBe(0);
  });
});
