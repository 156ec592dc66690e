import { describe, expect, it } from 'vitest';
import { billableCpuMs, COST_MODEL_FIXED_MS, jobCostModel } from './cost-model.ts';

describe('job cost model', () => {
  it('grows with the params and has a fixed floor', () => {
    const small = jobCostModel('prime_sieve', { limit: 30 });
    const large = jobCostModel('prime_sieve', { limit: 100_000_000_000 });
    expect(small.maxBillableCpuMs - COST_MODEL_FIXED_MS).toBeLessThanOrEqual(1);
    expect(large.maxBillableCpuMs).toBe(482_000);
    expect(large.maxRuntimeMs).toBe(542_000);
    expect(jobCostModel('matrix_multiply', { size: 1024 }).referenceCpuMs).toBeGreaterThan(
      jobCostModel('matrix_multiply', {}).referenceCpuMs,
    );
    expect(jobCostModel('fibonacci', { n: 10_000_000 }).referenceCpuMs).toBe(1200);
  });

  it('bills nothing for types without a kernel, and ignores inherited keys', () => {
    expect(jobCostModel('llm_inference', {}).maxBillableCpuMs).toBe(0);
    expect(jobCostModel('toString' as never, {}).maxBillableCpuMs).toBe(0);
  });

  it('takes the smallest of the report, the observed time on the allowed cores and the budget', () => {
    const job = { jobType: 'prime_sieve' as const, params: { limit: 100_000_000_000 } };
    expect(
      billableCpuMs({ ...job, reportedCpuMs: 1000, observedWallMs: 60_000, nodeCores: 4 }),
    ).toBe(1000);
    // 4 kernel cores + 1 for the runtime's threads.
    expect(
      billableCpuMs({ ...job, reportedCpuMs: 1e9, observedWallMs: 10_000, nodeCores: 4 }),
    ).toBe(50_000);
    expect(billableCpuMs({ ...job, reportedCpuMs: 1e9, observedWallMs: 1e9, nodeCores: 4 })).toBe(
      482_000,
    );
    // A device claiming a thousand cores is billed for at most 32 (+1).
    expect(
      billableCpuMs({ ...job, reportedCpuMs: 1e9, observedWallMs: 1000, nodeCores: 1000 }),
    ).toBe(33_000);
    // Fibonacci runs on one thread whatever the node offers.
    expect(
      billableCpuMs({
        jobType: 'fibonacci',
        params: { n: 10_000_000 },
        reportedCpuMs: 1e9,
        observedWallMs: 1000,
        nodeCores: 8,
      }),
    ).toBe(2000);
    expect(billableCpuMs({ ...job, reportedCpuMs: -5, observedWallMs: -5, nodeCores: 0 })).toBe(0);
  });
});
