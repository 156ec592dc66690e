import { agentPaths, apiPaths, type Lease } from '@fabric/contract';
import { expect, it } from 'vitest';
import { bearer } from './support/auth.ts';
import {
  agentCall,
  DEFAULT_USAGE,
  enrollNode,
  getJob,
  heartbeat,
  lease,
  leaseJob,
  PRIME_SIEVE_1E11_RESULT,
  registerEnterprise,
  registerProvider,
  submitJob,
} from './support/compute-network.ts';
import { describeEachDatabase } from './support/databases.ts';
import { balanceOf, moneyHarness } from './support/money.ts';
import { honestProof, reportResult } from './support/proofs.ts';
import {
  OUTVOTED,
  WAITING_FOR_REPLICA,
  WAITING_FOR_THIRD_RUN,
} from '../src/services/replication.ts';

// Replication: every job here is chosen (REPLICATION_SHARE 1). A verified result waits for a node
// of another provider to compute the same; it never waits when there is no such node, nor longer
// than REPLICATION_WAIT_SECONDS; a disagreement is settled by a third run, and the outvoted node
// earns nothing and loses reputation.

const WAIT_SECONDS = 30;
const MINUTE = 60_000;

describeEachDatabase('replication across providers', (database) => {
  const harness = moneyHarness(database, {
    replicationShare: 1,
    replicationWaitSeconds: WAIT_SECONDS,
    refusalsBeforeExclusion: 2,
  });
  const { clock } = harness;

  /** Device tokens of this test's nodes, which stay heard from while the clock moves. */
  let liveNodes: string[] = [];

  /** Every node enrolled by earlier tests falls silent and is marked offline. */
  async function quietNetwork() {
    liveNodes = [];
    clock.advanceBy(MINUTE);
    await harness.app.scheduler.sweep();
  }

  async function providerWithNode() {
    const token = await registerProvider(harness.app);
    const enrolled = await enrollNode(harness.app, token);
    liveNodes.push(enrolled.deviceToken);
    return { token, ...enrolled };
  }

  /** Reports after a minute of 30 CPU-seconds, so the shares are worth cents. */
  async function report(deviceToken: string, leased: Lease, proof = honestProof(leased)) {
    clock.advanceBy(MINUTE);
    // The other nodes heartbeat meanwhile, as running agents do: they are free to replicate.
    for (const other of liveNodes) {
      if (other !== deviceToken) await heartbeat(harness.app, other);
    }
    const response = await reportResult(
      harness.app,
      deviceToken,
      leased,
      proof.result,
      { ...DEFAULT_USAGE, cpu_ms: 30_000 },
      proof,
    );
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ accepted: boolean }>();
  }

  it('completes at once, marked not replicated, when no other provider has a node', async () => {
    await quietNetwork();
    const enterprise = await registerEnterprise(harness.app, { credits: 100 });
    const only = await providerWithNode();
    const job = await submitJob(harness.app, enterprise, {
      job_type: 'fibonacci',
      params: { n: 500 },
    });
    expect(await report(only.deviceToken, await leaseJob(harness.app, only.deviceToken))).toEqual({
      accepted: true,
      reason: null,
    });
    const done = await getJob(harness.app, enterprise, job.id);
    expect(done).toMatchObject({ status: 'completed', replication: 'not_replicated' });
  });

  it('waits for a node of another provider, completes when it agrees, and splits the pay', async () => {
    await quietNetwork();
    const enterprise = await registerEnterprise(harness.app, { credits: 100 });
    const first = await providerWithNode();
    const second = await providerWithNode();
    const job = await submitJob(harness.app, enterprise, {
      job_type: 'prime_sieve',
      params: { limit: PRIME_SIEVE_1E11_RESULT.limit },
    });
    await report(first.deviceToken, await leaseJob(harness.app, first.deviceToken));
    const waiting = await getJob(harness.app, enterprise, job.id);
    expect(waiting).toMatchObject({ status: 'queued', queue_reason: WAITING_FOR_REPLICA });
    expect(waiting.result).toBeNull();
    // Only another provider may replicate it.
    const sameOwner = await enrollNode(harness.app, first.token);
    expect(await lease(harness.app, sameOwner.deviceToken)).toBeNull();
    expect(await lease(harness.app, first.deviceToken)).toBeNull();

    const replica = await leaseJob(harness.app, second.deviceToken);
    expect(replica.job_id).toBe(job.id);
    await report(second.deviceToken, replica);
    const done = await getJob(harness.app, enterprise, job.id);
    expect(done).toMatchObject({ status: 'completed', replication: 'agreed' });
    expect(done.result).toEqual(PRIME_SIEVE_1E11_RESULT);

    // One run billed; its provider share split between the two providers, to the micro-dollar.
    const cost = done.actual_cost ?? 0;
    expect(cost).toBeGreaterThan(0);
    expect((await balanceOf(harness.app, enterprise)).balance).toBeCloseTo(100 - cost, 6);
    const firstEarned = (await balanceOf(harness.app, first.token)).pending_earnings;
    const secondEarned = (await balanceOf(harness.app, second.token)).pending_earnings;
    expect(firstEarned).toBeGreaterThan(0);
    expect(Math.abs(firstEarned - secondEarned)).toBeLessThanOrEqual(0.01);
  });

  it('waits for no node that is busy or has not been heard from for two heartbeats', async () => {
    await quietNetwork();
    const enterprise = await registerEnterprise(harness.app, { credits: 100 });
    const first = await providerWithNode();
    const busy = await providerWithNode();
    await providerWithNode(); // enrolled, then silent: its agent stopped
    const job = await submitJob(harness.app, enterprise, {
      job_type: 'fibonacci',
      params: { n: 700 },
    });
    const mine = await leaseJob(harness.app, first.deviceToken);
    await submitJob(harness.app, enterprise, { job_type: 'fibonacci', params: { n: 701 } });
    await leaseJob(harness.app, busy.deviceToken);
    // 15 s on: the busy node runs its job and heartbeats, the silent one (its agent stopped) does
    // not, though it still counts as online until the sweeper's 20 s.
    clock.advanceBy(15_000);
    await heartbeat(harness.app, busy.deviceToken);
    await heartbeat(harness.app, first.deviceToken);
    const answer = await reportResult(
      harness.app,
      first.deviceToken,
      mine,
      honestProof(mine).result,
      DEFAULT_USAGE,
    );
    expect(answer.json()).toEqual({ accepted: true, reason: null });
    expect(await getJob(harness.app, enterprise, job.id)).toMatchObject({
      status: 'completed',
      replication: 'not_replicated',
    });
  });

  it('completes on its challenge alone when no other provider takes it within the wait', async () => {
    await quietNetwork();
    const enterprise = await registerEnterprise(harness.app, { credits: 100 });
    const first = await providerWithNode();
    await providerWithNode(); // online, but never asks for work
    const job = await submitJob(harness.app, enterprise, {
      job_type: 'matrix_multiply',
      params: { size: 64, seed: 4 },
    });
    await report(first.deviceToken, await leaseJob(harness.app, first.deviceToken));
    expect((await getJob(harness.app, enterprise, job.id)).status).toBe('queued');

    clock.advanceBy((WAIT_SECONDS - 1) * 1000);
    await harness.app.scheduler.sweep();
    expect((await getJob(harness.app, enterprise, job.id)).status).toBe('queued');
    clock.advanceBy(2000);
    await harness.app.scheduler.sweep();
    const done = await getJob(harness.app, enterprise, job.id);
    expect(done).toMatchObject({ status: 'completed', replication: 'not_replicated' });
    expect((await balanceOf(harness.app, first.token)).pending_earnings).toBeGreaterThan(0);
  });

  it('never fails a verified result for its replica: a replica that gives up or a cancel ends it fairly', async () => {
    await quietNetwork();
    const enterprise = await registerEnterprise(harness.app, { credits: 100 });
    const first = await providerWithNode();
    const second = await providerWithNode();
    const job = await submitJob(harness.app, enterprise, {
      job_type: 'prime_sieve',
      params: { limit: PRIME_SIEVE_1E11_RESULT.limit },
    });
    await report(first.deviceToken, await leaseJob(harness.app, first.deviceToken));
    // The replica says the job cannot run anywhere: the verified result still stands.
    const replica = await leaseJob(harness.app, second.deviceToken);
    const failed = await agentCall(harness.app, second.deviceToken, agentPaths.fail(job.id), {
      lease_id: replica.lease_id,
      error: 'cannot run this',
      retryable: false,
    });
    expect(failed.statusCode, failed.body).toBe(200);
    expect(await getJob(harness.app, enterprise, job.id)).toMatchObject({
      status: 'queued',
      queue_reason: WAITING_FOR_REPLICA,
    });
    // Cancelled while it waits: the owner pays for the run that was done (no completion fee),
    // and its provider is paid.
    const cancelled = await harness.app.inject({
      method: 'POST',
      url: apiPaths.jobs.cancel(job.id),
      headers: bearer(enterprise),
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const cost = cancelled.json<{ actual_cost: number }>().actual_cost;
    expect(cost).toBeGreaterThan(0);
    expect((await balanceOf(harness.app, enterprise)).balance).toBeCloseTo(100 - cost, 6);
    expect((await balanceOf(harness.app, first.token)).pending_earnings).toBeGreaterThan(0);
    expect((await balanceOf(harness.app, second.token)).pending_earnings).toBe(0);
  });

  it('settles a disagreement by a third run: the outvoted node earns nothing and is marked', async () => {
    await quietNetwork();
    const enterprise = await registerEnterprise(harness.app, { credits: 100 });
    const honest = await providerWithNode();
    // Online before the first result, so the job waits for them.
    const replicas = [];
    for (let index = 0; index < 5; index++) replicas.push(await providerWithNode());
    const third = await providerWithNode();
    const job = await submitJob(harness.app, enterprise, {
      job_type: 'prime_sieve',
      params: { limit: PRIME_SIEVE_1E11_RESULT.limit },
    });
    await report(honest.deviceToken, await leaseJob(harness.app, honest.deviceToken));

    // A replica that moved one prime from one span to another: the same total, the same largest
    // prime, and a challenge of 3 spans in 5,961 misses the two it touched almost always. When it
    // does not miss, that replica is refused outright and another tries.
    let liar: Awaited<ReturnType<typeof providerWithNode>> | undefined;
    for (const candidate of replicas) {
      if (liar) break;
      const leased = await leaseJob(harness.app, candidate.deviceToken);
      const proof = honestProof(leased);
      const counts = [...(proof.commitment.segment_counts as number[])];
      counts[100] = (counts[100] ?? 0) + 1;
      counts[200] = (counts[200] ?? 0) - 1;
      const answer = await report(candidate.deviceToken, leased, {
        ...proof,
        commitment: { segment_counts: counts },
      });
      if (answer.accepted) liar = candidate;
    }
    if (!liar) throw new Error('every altered replica was caught by its challenge');
    const waiting = await getJob(harness.app, enterprise, job.id);
    expect(waiting).toMatchObject({ status: 'queued', queue_reason: WAITING_FOR_THIRD_RUN });

    await report(third.deviceToken, await leaseJob(harness.app, third.deviceToken));
    const done = await getJob(harness.app, enterprise, job.id);
    expect(done).toMatchObject({ status: 'completed', replication: 'agreed' });
    expect(done.result).toEqual(PRIME_SIEVE_1E11_RESULT);
    expect((await balanceOf(harness.app, liar.token)).pending_earnings).toBe(0);
    expect((await balanceOf(harness.app, honest.token)).pending_earnings).toBeGreaterThan(0);
    expect((await balanceOf(harness.app, third.token)).pending_earnings).toBeGreaterThan(0);

    const detail = await harness.app.inject({
      url: apiPaths.nodes.jobs(liar.node.id),
      headers: bearer(liar.token),
    });
    expect(detail.statusCode, detail.body).toBe(200);
    expect(
      detail.json<{ attempts: { outcome: string; error: string | null }[] }>().attempts[0],
    ).toMatchObject({ outcome: 'rejected', error: OUTVOTED });
  });

  it('leases no more work to a node after repeated refusals, and tells its owner', async () => {
    await quietNetwork();
    const enterprise = await registerEnterprise(harness.app, { credits: 100 });
    const cheat = await providerWithNode();
    for (let round = 0; round < 2; round++) {
      await submitJob(harness.app, enterprise, { job_type: 'fibonacci', params: { n: 30 } });
      const leased = await leaseJob(harness.app, cheat.deviceToken);
      const proof = honestProof(leased);
      const answer = await report(cheat.deviceToken, leased, {
        ...proof,
        result: { ...proof.result, value: '832041', head: '832041', tail: '832041' },
      });
      expect(answer.accepted).toBe(false);
    }
    // Work is waiting (the last job, and a new one), but not for this node.
    await submitJob(harness.app, enterprise, { job_type: 'fibonacci', params: { n: 31 } });
    expect(await lease(harness.app, cheat.deviceToken)).toBeNull();
    const notifications = await harness.app.inject({
      url: apiPaths.notifications.list,
      headers: bearer(cheat.token),
    });
    expect(notifications.body).toContain('gets no more jobs');
  });
});
