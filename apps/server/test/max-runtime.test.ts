import { agentPaths, apiPaths, jobCostModel } from '@fabric/contract';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { bearer } from './support/auth.ts';
import { createManualClock } from './support/clock.ts';
import {
  agentCall,
  cancelUnfinishedJobs,
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
import { balanceOf, expectLedgerSound } from './support/money.ts';

// "Leases held forever": a node that keeps heartbeating cannot sit on a job past the job's
// maximum runtime (its cost model's CPU budget on one core plus a grace): the server takes the
// lease back, the job is retried on another node free of charge, and the node that sat on it is
// not given it again.

describeEachDatabase('scheduler: the maximum runtime of a lease', (database) => {
  let app: FastifyInstance;
  const clock = createManualClock(new Date('2026-11-20T12:00:00.000Z'));

  beforeAll(async () => {
    app = await database.buildApp({
      clock: clock.now,
      config: { accessTokenTtlSeconds: 400 * 86_400 },
    });
  });
  afterEach(async () => {
    await cancelUnfinishedJobs(database);
    await expectLedgerSound(database);
  });

  it('takes back a heartbeating lease past the maximum runtime, retries elsewhere, charges nothing', async () => {
    const enterprise = await registerEnterprise(app, { credits: 10 });
    const provider = await registerProvider(app);
    const sitter = await enrollNode(app, provider);
    const job = await submitJob(app, enterprise, { job_type: 'fibonacci', params: { n: 10 } });
    const leased = await leaseJob(app, sitter.deviceToken);
    const { maxRuntimeMs } = jobCostModel('fibonacci', { n: 10 });

    // Heartbeats every 5 s, well past the maximum runtime.
    for (let elapsed = 0; elapsed <= maxRuntimeMs + 10_000; elapsed += 5000) {
      clock.advanceBy(5000);
      await heartbeat(app, sitter.deviceToken, { running_job_ids: [job.id] });
    }
    await app.scheduler.sweep();

    const requeued = await getJob(app, enterprise, job.id);
    expect(requeued.status).toBe('queued');
    expect(requeued.queue_reason).toMatch(/ran past its maximum runtime/);
    // The lease is gone: the sitter's report is refused and the next heartbeat tells it to abort.
    const late = await agentCall(app, sitter.deviceToken, agentPaths.complete(job.id), {
      lease_id: leased.lease_id,
      result: { n: 10, digits: 2, value: '55', head: '55', tail: '55', sha256: 'x'.repeat(64) },
      usage: { wall_ms: 1, cpu_ms: 1, peak_memory_bytes: 1 },
    });
    expect(late.statusCode).toBe(409);
    expect(
      (await heartbeat(app, sitter.deviceToken, { running_job_ids: [job.id] })).abort_job_ids,
    ).toEqual([job.id]);
    // The same node is not leased it again; a node of another provider is.
    expect(await lease(app, sitter.deviceToken)).toBeNull();
    const other = await enrollNode(app, await registerProvider(app));
    expect((await leaseJob(app, other.deviceToken)).job_id).toBe(job.id);

    const cancelled = await app.inject({
      method: 'POST',
      url: apiPaths.jobs.cancel(job.id),
      headers: bearer(enterprise),
    });
    expect(cancelled.statusCode).toBe(200);
    expect((await balanceOf(app, enterprise)).balance).toBe(10);
  });
});
