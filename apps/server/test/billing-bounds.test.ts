import {
  agentPaths,
  apiPaths,
  jobCostModel,
  providerShareMicros,
  usageCostMicros,
  type Lease,
} from '@fabric/contract';
import { expect, it } from 'vitest';
import { bearer } from './support/auth.ts';
import {
  agentCall,
  enrollNode,
  getJob,
  leaseJob,
  PRIME_SIEVE_1E11_RESULT,
  registerEnterprise,
  registerProvider,
  submitJob,
} from './support/compute-network.ts';
import { describeEachDatabase } from './support/databases.ts';
import { balanceOf, completeWithCpu, moneyHarness } from './support/money.ts';

// "A device sets its own price": a verified result is billed for the work its params need (the
// job type's cost model), bounded by what the server saw (lease start to result, on its own
// clock, × the cores the job may use); the CPU time a device reports is never billed. A
// device-reported failure is free; cancelling costs the time spent, at most the whole job's work.

const MINUTE = 60_000;
const FIBONACCI_10 = {
  n: 10,
  digits: 2,
  value: '55',
  head: '55',
  tail: '55',
  sha256: '02d20bbd7e394ad5999a4cebabac9619732c343a4cac99470c03e23ba2bdc2bc',
};
/** $0.01 per completed job plus $0.000002 per CPU millisecond. */
const costOf = (cpuMs: number, withJobFee = true) => (withJobFee ? 0.01 : 0) + cpuMs * 0.000002;
/** The API shows costs in exact micro-dollars. */
const roundCents = (dollars: number) => Math.round(dollars * 1e6) / 1e6;

describeEachDatabase('billing bounds: what a device reports cannot raise its pay', (database) => {
  const harness = moneyHarness(database);
  const { clock } = harness;

  async function leasedJob(jobType: 'fibonacci' | 'prime_sieve', params: Record<string, unknown>) {
    const provider = await registerProvider(harness.app);
    const enterprise = await registerEnterprise(harness.app, { credits: 100 });
    const { deviceToken } = await enrollNode(harness.app, provider);
    const job = await submitJob(harness.app, enterprise, { job_type: jobType, params });
    const leased: Lease = await leaseJob(harness.app, deviceToken);
    return { provider, enterprise, deviceToken, job, leased };
  }

  const complete = (
    deviceToken: string,
    leased: Lease,
    result: Record<string, unknown>,
    cpuMs: number,
  ) => completeWithCpu(harness.app, deviceToken, leased, result, cpuMs);

  it('F(10) reported as 20 CPU-minutes after 20 minutes is billed its work, not $2.40', async () => {
    const { provider, enterprise, deviceToken, job, leased } = await leasedJob('fibonacci', {
      n: 10,
    });
    clock.advanceBy(20 * MINUTE);
    const done = await complete(deviceToken, leased, FIBONACCI_10, 20 * MINUTE);
    expect(done.json()).toEqual({ accepted: true, reason: null });
    const work = jobCostModel('fibonacci', { n: 10 }).referenceCpuMs;
    expect(work).toBeLessThan(10);
    const charged = await getJob(harness.app, enterprise, job.id);
    expect(charged.actual_cost).toBe(roundCents(costOf(work)));
    expect(charged.billed_cpu_ms).toBe(work);
    expect(charged.usage?.cpu_ms).toBe(20 * MINUTE);
    // The provider's 80 % of that charge, as the balance shows it (cents).
    const shareMicros = providerShareMicros(
      usageCostMicros('fibonacci', work, { includesJobFee: true }),
    );
    expect((await balanceOf(harness.app, provider)).pending_earnings).toBe(
      Math.round(shareMicros / 10_000) / 100,
    );
  });

  it('bills no more CPU time than the server saw the lease run on the cores the job may use', async () => {
    const { enterprise, deviceToken, job, leased } = await leasedJob('prime_sieve', {
      limit: PRIME_SIEVE_1E11_RESULT.limit,
    });
    // A cached answer: the test node offers 4 cores (+1 for the runtime's own threads) and the
    // lease ran 10 s by the server's clock, far less than the 80 s of work.
    clock.advanceBy(10_000);
    const done = await complete(deviceToken, leased, PRIME_SIEVE_1E11_RESULT, 30 * MINUTE);
    expect(done.json()).toEqual({ accepted: true, reason: null });
    expect((await getJob(harness.app, enterprise, job.id)).actual_cost).toBe(
      roundCents(costOf(50_000)),
    );
  });

  it('bills the work whatever CPU time the device reports, less or more', async () => {
    const work = jobCostModel('prime_sieve', {
      limit: PRIME_SIEVE_1E11_RESULT.limit,
    }).referenceCpuMs;
    expect(work).toBe(80_000);
    for (const reportedCpuMs of [1000, work, 240_000]) {
      const { enterprise, deviceToken, job, leased } = await leasedJob('prime_sieve', {
        limit: PRIME_SIEVE_1E11_RESULT.limit,
      });
      clock.advanceBy(5 * MINUTE);
      await complete(deviceToken, leased, PRIME_SIEVE_1E11_RESULT, reportedCpuMs);
      const billed = await getJob(harness.app, enterprise, job.id);
      expect(billed.actual_cost).toBe(roundCents(costOf(work)));
      expect(billed.billed_cpu_ms).toBe(work);
      expect(billed.usage?.cpu_ms).toBe(reportedCpuMs);
    }
  });

  it('a failure the device reports as final, with inflated usage, costs nothing', async () => {
    const { provider, enterprise, deviceToken, job, leased } = await leasedJob('fibonacci', {
      n: 10,
    });
    clock.advanceBy(20 * MINUTE);
    const failed = await agentCall(harness.app, deviceToken, agentPaths.fail(leased.job_id), {
      lease_id: leased.lease_id,
      error: 'kernel crashed',
      retryable: false,
      usage: { wall_ms: 20 * MINUTE, cpu_ms: 20 * MINUTE, peak_memory_bytes: 1 },
    });
    expect(failed.statusCode, failed.body).toBe(200);
    const ended = await getJob(harness.app, enterprise, job.id);
    expect(ended.status).toBe('failed');
    expect(ended.actual_cost).toBe(0);
    expect((await balanceOf(harness.app, enterprise)).balance).toBe(100);
    expect((await balanceOf(harness.app, provider)).pending_earnings).toBe(0);
  });

  it('cancelling a job that has run for hours costs at most its whole work', async () => {
    const { enterprise, job } = await leasedJob('prime_sieve', {
      limit: PRIME_SIEVE_1E11_RESULT.limit,
    });
    clock.advanceBy(2 * 60 * MINUTE);
    const cancelled = await harness.app.inject({
      method: 'POST',
      url: apiPaths.jobs.cancel(job.id),
      headers: bearer(enterprise),
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const work = jobCostModel('prime_sieve', {
      limit: PRIME_SIEVE_1E11_RESULT.limit,
    }).referenceCpuMs;
    const ended = await getJob(harness.app, enterprise, job.id);
    expect(ended.actual_cost).toBe(roundCents(costOf(work, false)));
    expect(ended.billed_cpu_ms).toBe(work);
  });
});
