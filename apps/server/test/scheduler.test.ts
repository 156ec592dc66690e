import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  agentPaths,
  apiPaths,
  DEFAULT_MAX_ATTEMPTS,
  ERROR_CODES,
  LEASE_TIMEOUT_SECONDS,
  leaseResponseSchema,
} from '@fabric/contract';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { jobAttempts } from '../src/db/schema.ts';
import { bearer } from './support/auth.ts';
import { createManualClock } from './support/clock.ts';
import {
  agentCall,
  cancelUnfinishedJobs,
  completeRequest,
  deviceHeader,
  enrollNode,
  getJob,
  getNode,
  heartbeat,
  lease,
  leaseJob,
  leaseRequest,
  primeSieveResult,
  registerEnterprise,
  registerProvider,
  submitJob,
  waitUntil,
} from './support/compute-network.ts';
import { describeEachDatabase } from './support/databases.ts';

const EXPIRY_MILLISECONDS = (LEASE_TIMEOUT_SECONDS + 1) * 1000;

describeEachDatabase('scheduler: leases, retries, verification and long polls', (database) => {
  let app: FastifyInstance;
  let enterprise: string;
  let provider: string;
  const clock = createManualClock();

  beforeAll(async () => {
    app = await database.buildApp({ clock: clock.now });
    [enterprise, provider] = await Promise.all([registerEnterprise(app), registerProvider(app)]);
  });
  afterEach(() => cancelUnfinishedJobs(database));

  const attemptsOf = async (jobId: string) => {
    const { db } = await database.connection();
    return db
      .select({
        outcome: jobAttempts.outcome,
        nodeId: jobAttempts.nodeId,
        error: jobAttempts.error,
      })
      .from(jobAttempts)
      .where(eq(jobAttempts.jobId, jobId))
      .orderBy(asc(jobAttempts.attemptNumber), asc(jobAttempts.startedAt));
  };

  describe('choosing a job', () => {
    it('leases priority 1 before 0, then the oldest first', async () => {
      const submitted = [];
      for (const priority of [0, 1, 0, 1] as const) {
        clock.advanceBy(1000);
        submitted.push(await submitJob(app, enterprise, { job_type: 'fibonacci', priority }));
      }
      const [normalOld, highOld, normalNew, highNew] = submitted.map((job) => job.id);
      const leased = [];
      for (let index = 0; index < 4; index += 1) {
        const { deviceToken } = await enrollNode(app, provider);
        leased.push((await leaseJob(app, deviceToken)).job_id);
      }
      expect(leased).toEqual([highOld, highNew, normalOld, normalNew]);
    });

    it('leases only types the node supports', async () => {
      clock.advanceBy(1000);
      const sieve = await submitJob(app, enterprise, { job_type: 'prime_sieve', params: {} });
      clock.advanceBy(1000);
      const fibonacci = await submitJob(app, enterprise, { job_type: 'fibonacci', params: {} });
      const fibonacciNode = await enrollNode(app, provider, { supported_job_types: ['fibonacci'] });
      const matrixNode = await enrollNode(app, provider, {
        supported_job_types: ['matrix_multiply', 'llm_inference'],
      });
      expect(await lease(app, matrixNode.deviceToken)).toBeNull();
      expect((await leaseJob(app, fibonacciNode.deviceToken)).job_id).toBe(fibonacci.id);
      expect((await getJob(app, enterprise, sieve.id)).status).toBe('queued');
    });

    it('gives a paused node nothing until it is resumed', async () => {
      const job = await submitJob(app, enterprise);
      const { node, deviceToken } = await enrollNode(app, provider);
      const pause = (action: 'pause' | 'resume') =>
        app.inject({
          method: 'POST',
          url: apiPaths.nodes[action](node.id),
          headers: bearer(provider),
        });
      expect((await pause('pause')).statusCode).toBe(200);
      expect(await lease(app, deviceToken)).toBeNull();
      expect((await pause('resume')).statusCode).toBe(200);
      expect((await leaseJob(app, deviceToken)).job_id).toBe(job.id);
    });

    it('runs one job per node: asking again answers the lease it holds', async () => {
      const first = await submitJob(app, enterprise);
      const second = await submitJob(app, enterprise);
      const { node, deviceToken } = await enrollNode(app, provider);
      const leased = await leaseJob(app, deviceToken);
      expect(leased.job_id).toBe(first.id);
      expect(await leaseJob(app, deviceToken)).toMatchObject({
        job_id: first.id,
        lease_id: leased.lease_id,
        challenge_seed: leased.challenge_seed,
      });
      expect((await getNode(app, provider, node.id)).current_job_id).toBe(first.id);
      expect((await getJob(app, enterprise, second.id)).status).toBe('queued');

      await completeRequest(app, deviceToken, leased, primeSieveResult(30));
      expect((await leaseJob(app, deviceToken)).job_id).toBe(second.id);
    });

    it('hands out a lease with a fresh id, the attempt number, expiry and a 31-bit seed', async () => {
      const job = await submitJob(app, enterprise, {
        job_type: 'matrix_multiply',
        params: { size: 8 },
        priority: 1,
      });
      const { node, deviceToken } = await enrollNode(app, provider);
      const leased = await leaseJob(app, deviceToken);
      expect(leased).toEqual({
        lease_id: expect.any(String) as unknown,
        job_id: job.id,
        job_type: 'matrix_multiply',
        params: { size: 8 },
        priority: 1,
        attempt: 1,
        expires_at: new Date(clock.now().getTime() + LEASE_TIMEOUT_SECONDS * 1000).toISOString(),
        challenge_seed: expect.any(Number) as unknown,
      });
      expect(leased.challenge_seed).toBeGreaterThanOrEqual(0);
      expect(leased.challenge_seed).toBeLessThan(2 ** 31);
      expect(await getJob(app, enterprise, job.id)).toMatchObject({
        status: 'running',
        assigned_node_id: node.id,
        attempts: 1,
        started_at: clock.now().toISOString(),
      });
    });
  });

  describe('lease expiry', () => {
    it('heartbeats and progress keep a lease alive', async () => {
      const job = await submitJob(app, enterprise);
      const holder = await enrollNode(app, provider);
      const leased = await leaseJob(app, holder.deviceToken);
      const other = await enrollNode(app, provider);
      clock.advanceBy(15_000);
      await heartbeat(app, holder.deviceToken, { running_job_ids: [job.id] });
      clock.advanceBy(15_000);
      const progress = await agentCall(app, holder.deviceToken, agentPaths.progress(job.id), {
        lease_id: leased.lease_id,
        progress: 0.5,
        message: 'halfway',
      });
      expect(progress.json()).toEqual({ abort: false });
      clock.advanceBy(15_000);
      expect(await lease(app, other.deviceToken)).toBeNull();
      expect(await getJob(app, enterprise, job.id)).toMatchObject({
        status: 'running',
        progress: 0.5,
        progress_message: 'halfway',
        attempts: 1,
      });
    });

    it('retries on another node when heartbeats stop, then fails after max attempts', async () => {
      const job = await submitJob(app, enterprise);
      const nodes = [];
      for (let index = 0; index < DEFAULT_MAX_ATTEMPTS + 1; index += 1) {
        nodes.push(await enrollNode(app, provider));
      }
      const [first, second, third, fourth] = nodes as [
        (typeof nodes)[0],
        (typeof nodes)[0],
        (typeof nodes)[0],
        (typeof nodes)[0],
      ];
      const firstLease = await leaseJob(app, first.deviceToken);

      clock.advanceBy(EXPIRY_MILLISECONDS);
      const secondLease = await leaseJob(app, second.deviceToken);
      expect(secondLease).toMatchObject({ job_id: job.id, attempt: 2 });
      expect(secondLease.lease_id).not.toBe(firstLease.lease_id);
      expect(await getJob(app, enterprise, job.id)).toMatchObject({
        status: 'running',
        attempts: 2,
        assigned_node_id: second.node.id,
      });
      // The silent node is offline and told to drop the job; its late result is refused.
      expect((await getNode(app, provider, first.node.id)).status).toBe('offline');
      expect(await heartbeat(app, first.deviceToken, { running_job_ids: [job.id] })).toMatchObject({
        abort_job_ids: [job.id],
      });
      const late = await completeRequest(app, first.deviceToken, firstLease, primeSieveResult(30));
      expect(late.statusCode).toBe(409);
      expect(late.json()).toEqual({
        message: 'This lease is no longer valid',
        code: ERROR_CODES.leaseNotValid,
      });

      clock.advanceBy(EXPIRY_MILLISECONDS);
      expect(await leaseJob(app, third.deviceToken)).toMatchObject({ job_id: job.id, attempt: 3 });
      clock.advanceBy(EXPIRY_MILLISECONDS);
      expect(await lease(app, fourth.deviceToken)).toBeNull();

      expect(await getJob(app, enterprise, job.id)).toMatchObject({
        status: 'failed',
        attempts: 3,
        error: 'Job failed after 3 attempts: node stopped responding',
        finished_at: clock.now().toISOString(),
        assigned_node_id: third.node.id,
      });
      expect(await attemptsOf(job.id)).toEqual(
        [first, second, third].map((entry) => ({
          outcome: 'expired',
          nodeId: entry.node.id,
          error: 'node stopped responding',
        })),
      );
    });

    it('the sweeper alone requeues an expired lease and says why', async () => {
      const job = await submitJob(app, enterprise);
      const { deviceToken } = await enrollNode(app, provider);
      await leaseJob(app, deviceToken);
      clock.advanceBy(EXPIRY_MILLISECONDS);
      await app.scheduler.sweep();
      expect(await getJob(app, enterprise, job.id)).toMatchObject({
        status: 'queued',
        attempts: 1,
        progress: 0,
        queue_reason:
          'Attempt 1 of 3 ended (node stopped responding); waiting for a node to try again',
      });
    });
  });

  describe('complete, fail and release', () => {
    it('completes with the verified result, usage and finish time', async () => {
      const job = await submitJob(app, enterprise, {
        job_type: 'prime_sieve',
        params: { limit: 100 },
      });
      const { node, deviceToken } = await enrollNode(app, provider);
      const leased = await leaseJob(app, deviceToken);
      clock.advanceBy(2000);
      const response = await completeRequest(app, deviceToken, leased, primeSieveResult(100));
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ accepted: true, reason: null });
      expect(await getJob(app, enterprise, job.id)).toMatchObject({
        status: 'completed',
        result: primeSieveResult(100),
        usage: { wall_ms: 120, cpu_ms: 100, peak_memory_bytes: 1_048_576 },
        finished_at: clock.now().toISOString(),
        progress: 1,
        // $0.01 per job + π(100)'s work (0 ms on the reference core); the 100 ms of CPU the
        // node reports is shown, not billed.
        actual_cost: 0.01,
        billed_cpu_ms: 0,
        assigned_node_id: node.id,
      });
      expect((await getNode(app, provider, node.id)).jobs_completed).toBe(1);
      expect(await attemptsOf(job.id)).toEqual([
        { outcome: 'completed', nodeId: node.id, error: null },
      ]);
      // Completing twice: the lease has ended.
      const again = await completeRequest(app, deviceToken, leased, primeSieveResult(100));
      expect(again.statusCode).toBe(409);
    });

    it('answers 409 for a lease id that is not the current one; 404 to a node that never had the job', async () => {
      const job = await submitJob(app, enterprise);
      const { deviceToken } = await enrollNode(app, provider);
      const leased = await leaseJob(app, deviceToken);
      const wrongLease = { ...leased, lease_id: '00000000-0000-4000-8000-00000000abcd' };
      const response = await completeRequest(app, deviceToken, wrongLease, primeSieveResult(30));
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ code: ERROR_CODES.leaseNotValid });
      const progress = await agentCall(app, deviceToken, agentPaths.progress(job.id), {
        lease_id: wrongLease.lease_id,
        progress: 0.1,
      });
      expect(progress.json()).toEqual({ abort: true });

      const stranger = await enrollNode(app, provider);
      const foreign = await completeRequest(
        app,
        stranger.deviceToken,
        leased,
        primeSieveResult(30),
      );
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toEqual({
        message: 'This node has never been leased this job',
        code: ERROR_CODES.notFound,
      });
      expect((await getJob(app, enterprise, job.id)).status).toBe('running');
    });

    it('answers 400 naming the result field that does not fit the type; the lease stays', async () => {
      const job = await submitJob(app, enterprise);
      const { deviceToken } = await enrollNode(app, provider);
      const leased = await leaseJob(app, deviceToken);
      const response = await completeRequest(app, deviceToken, leased, {
        ...primeSieveResult(30),
        count: 'ten',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        field: 'result.count',
        code: ERROR_CODES.validation,
      });
      const retried = await completeRequest(app, deviceToken, leased, primeSieveResult(30));
      expect(retried.json()).toEqual({ accepted: true, reason: null });
      expect((await getJob(app, enterprise, job.id)).status).toBe('completed');
    });

    it('retries a refused result on another node, never the same one', async () => {
      const job = await submitJob(app, enterprise);
      const cheat = await enrollNode(app, provider);
      const honest = await enrollNode(app, provider);
      const leased = await leaseJob(app, cheat.deviceToken);
      const refused = await completeRequest(app, cheat.deviceToken, leased, {
        ...primeSieveResult(30),
        count: 11,
      });
      expect(refused.statusCode).toBe(200);
      expect(refused.json()).toEqual({
        accepted: false,
        reason: 'count is 11, but there are 10 primes up to 30',
      });
      expect(await getJob(app, enterprise, job.id)).toMatchObject({
        status: 'queued',
        attempts: 1,
        result: null,
      });
      expect(await lease(app, cheat.deviceToken)).toBeNull();

      const retry = await leaseJob(app, honest.deviceToken);
      expect(retry).toMatchObject({ job_id: job.id, attempt: 2 });
      await completeRequest(app, honest.deviceToken, retry, primeSieveResult(30));
      expect(await getJob(app, enterprise, job.id)).toMatchObject({
        status: 'completed',
        assigned_node_id: honest.node.id,
      });
      expect((await getNode(app, provider, cheat.node.id)).jobs_completed).toBe(0);
      expect((await attemptsOf(job.id)).map((attempt) => attempt.outcome)).toEqual([
        'rejected',
        'completed',
      ]);
    });

    it('fails the job after max attempts of refused results', async () => {
      const job = await submitJob(app, enterprise);
      for (let attempt = 1; attempt <= DEFAULT_MAX_ATTEMPTS; attempt += 1) {
        const { deviceToken } = await enrollNode(app, provider);
        const leased = await leaseJob(app, deviceToken);
        expect(leased.attempt).toBe(attempt);
        await completeRequest(app, deviceToken, leased, { ...primeSieveResult(30), largest: 28 });
      }
      expect(await getJob(app, enterprise, job.id)).toMatchObject({
        status: 'failed',
        attempts: 3,
        error: 'Job failed after 3 attempts: result verification failed: largest (28) is not prime',
      });
    });

    it('fail with retryable false fails the job at once with the error', async () => {
      const job = await submitJob(app, enterprise);
      const { deviceToken } = await enrollNode(app, provider);
      const leased = await leaseJob(app, deviceToken);
      const response = await agentCall(app, deviceToken, agentPaths.fail(job.id), {
        lease_id: leased.lease_id,
        error: 'params.limit is too large for this device',
        retryable: false,
        usage: { wall_ms: 5, cpu_ms: 4, peak_memory_bytes: 1000 },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ ok: true });
      expect(await getJob(app, enterprise, job.id)).toMatchObject({
        status: 'failed',
        attempts: 1,
        error: 'params.limit is too large for this device',
      });
    });

    it('fail with retryable true queues the job again, counting the attempt', async () => {
      const job = await submitJob(app, enterprise);
      const { deviceToken } = await enrollNode(app, provider);
      const leased = await leaseJob(app, deviceToken);
      await agentCall(app, deviceToken, agentPaths.fail(job.id), {
        lease_id: leased.lease_id,
        error: 'Kernel process crashed',
        retryable: true,
      });
      expect(await getJob(app, enterprise, job.id)).toMatchObject({
        status: 'queued',
        attempts: 1,
        error: null,
      });
      expect(await leaseJob(app, deviceToken)).toMatchObject({ job_id: job.id, attempt: 2 });
      const again = await agentCall(app, deviceToken, agentPaths.fail(job.id), {
        lease_id: leased.lease_id,
        error: 'late report of the old lease',
        retryable: true,
      });
      expect(again.statusCode).toBe(409);
    });

    it('release queues the job again without counting the attempt', async () => {
      const job = await submitJob(app, enterprise);
      const { deviceToken } = await enrollNode(app, provider);
      const leased = await leaseJob(app, deviceToken);
      const response = await agentCall(app, deviceToken, agentPaths.release(job.id), {
        lease_id: leased.lease_id,
      });
      expect(response.json()).toEqual({ ok: true });
      expect(await getJob(app, enterprise, job.id)).toMatchObject({
        status: 'queued',
        attempts: 0,
        queue_reason: null,
      });
      expect(await leaseJob(app, deviceToken)).toMatchObject({ job_id: job.id, attempt: 1 });
      expect((await attemptsOf(job.id)).map((attempt) => attempt.outcome)).toEqual([
        'released',
        null,
      ]);
    });
  });

  describe('long poll', () => {
    it('a waiting lease is answered with a job submitted while it waits', async () => {
      const { deviceToken } = await enrollNode(app, provider);
      const waiting = leaseRequest(app, deviceToken, 25);
      await waitUntil(() => app.scheduler.waitingLeaseCount() > 0, 'the lease request waits');
      const job = await submitJob(app, enterprise);
      const response = await waiting;
      expect(response.statusCode).toBe(200);
      expect(leaseResponseSchema.parse(response.json()).lease?.job_id).toBe(job.id);
    });

    it('a waiting lease is answered when its paused node is resumed', async () => {
      const job = await submitJob(app, enterprise);
      const { node, deviceToken } = await enrollNode(app, provider);
      await app.inject({
        method: 'POST',
        url: apiPaths.nodes.pause(node.id),
        headers: bearer(provider),
      });
      const waiting = leaseRequest(app, deviceToken, 25);
      await waitUntil(() => app.scheduler.waitingLeaseCount() > 0, 'the lease request waits');
      await app.inject({
        method: 'POST',
        url: apiPaths.nodes.resume(node.id),
        headers: bearer(provider),
      });
      expect(leaseResponseSchema.parse((await waiting).json()).lease?.job_id).toBe(job.id);
    });

    it('a waiting lease stops waiting when its client goes away, and takes no job', async () => {
      const server = await database.buildApp({ clock: clock.now });
      await server.listen({ host: '127.0.0.1', port: 0 });
      const address = server.server.address() as AddressInfo;
      const { deviceToken } = await enrollNode(server, provider);
      const body = JSON.stringify({ wait_seconds: 25 });
      const request = http.request({
        host: '127.0.0.1',
        port: address.port,
        method: 'POST',
        path: agentPaths.lease,
        headers: {
          ...deviceHeader(deviceToken),
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      });
      request.on('error', () => undefined);
      request.end(body);
      await waitUntil(() => server.scheduler.waitingLeaseCount() > 0, 'the lease request waits');
      request.destroy();
      await waitUntil(() => server.scheduler.waitingLeaseCount() === 0, 'the wait ends');

      const job = await submitJob(server, enterprise);
      expect((await getJob(server, enterprise, job.id)).status).toBe('queued');
      await server.close();
    });

    it('a waiting lease answers null when the app shuts down', async () => {
      const other = await database.buildApp({ clock: clock.now });
      const { deviceToken } = await enrollNode(other, provider);
      const waiting = leaseRequest(other, deviceToken, 25);
      await waitUntil(() => other.scheduler.waitingLeaseCount() > 0, 'the lease request waits');
      await other.close();
      expect((await waiting).json()).toEqual({ lease: null });
    });
  });
});
