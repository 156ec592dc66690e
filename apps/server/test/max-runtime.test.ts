import { agentPaths, apiPaths, jobCostModel } from '@fabric/contract';
import { expect, it } from 'vitest';
import { bearer } from './support/auth.ts';
import {
  agentCall,
  enrollNode,
  getJob,
  heartbeat,
  leaseJob,
  lease,
  registerEnterprise,
  registerProvider,
  submitJob,
} from './support/compute-network.ts';
import { describeEachDatabase } from './support/databases.ts';
import { balanceOf, moneyHarness } from './support/money.ts';

// "Leases held forever": a node that keeps heartbeating cannot sit on a job past the job's
// maximum runtime (its cost model's CPU budget on one core plus a grace): the server takes the
// lease back, the job is retried on another node free of charge, and the node that sat on it is
// not given it again.

describeEachDatabase('scheduler: the maximum runtime of a lease', (database) => {
  const harness = moneyHarness(database);
  const { clock } = harness;

  it('takes back a heartbeating lease past the maximum runtime, retries elsewhere, charges nothing', async () => {
    const enterprise = await registerEnterprise(harness.app, { credits: 10 });
    const provider = await registerProvider(harness.app);
    const sitter = await enrollNode(harness.app, provider);
    const job = await submitJob(harness.app, enterprise, {
      job_type: 'fibonacci',
      params: { n: 10 },
    });
    const leased = await leaseJob(harness.app, sitter.deviceToken);
    const { maxRuntimeMs } = jobCostModel('fibonacci', { n: 10 });

    // Heartbeats every 5 s, well past the maximum runtime.
    for (let elapsed = 0; elapsed <= maxRuntimeMs + 10_000; elapsed += 5000) {
      clock.advanceBy(5000);
      await heartbeat(harness.app, sitter.deviceToken, { running_job_ids: [job.id] });
    }
    await harness.app.scheduler.sweep();

    const requeued = await getJob(harness.app, enterprise, job.id);
    expect(requeued.status).toBe('queued');
    expect(requeued.queue_reason).toMatch(/ran past its maximum runtime/);
    // The lease is gone: the sitter's report is refused and the next heartbeat tells it to abort.
    const late = await agentCall(harness.app, sitter.deviceToken, agentPaths.commit(job.id), {
      lease_id: leased.lease_id,
      result: { n: 10, digits: 2, value: '55', head: '55', tail: '55', sha256: 'x'.repeat(64) },
      commitment: {},
      usage: { wall_ms: 1, cpu_ms: 1, peak_memory_bytes: 1 },
    });
    expect(late.statusCode).toBe(409);
    expect(
      (await heartbeat(harness.app, sitter.deviceToken, { running_job_ids: [job.id] }))
        .abort_job_ids,
    ).toEqual([job.id]);
    // The same node is not leased it again; a node of another provider is.
    expect(await lease(harness.app, sitter.deviceToken)).toBeNull();
    const other = await enrollNode(harness.app, await registerProvider(harness.app));
    expect((await leaseJob(harness.app, other.deviceToken)).job_id).toBe(job.id);

    const cancelled = await harness.app.inject({
      method: 'POST',
      url: apiPaths.jobs.cancel(job.id),
      headers: bearer(enterprise),
    });
    expect(cancelled.statusCode).toBe(200);
    expect((await balanceOf(harness.app, enterprise)).balance).toBe(10);
  });
});
