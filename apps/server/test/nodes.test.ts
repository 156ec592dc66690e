import {
  agentPaths,
  apiPaths,
  ERROR_CODES,
  LEASE_TIMEOUT_SECONDS,
  nodeEarningsResponseSchema,
  nodeJobsResponseSchema,
  nodeListResponseSchema,
  nodeSchema,
  registerNodeResponseSchema,
} from '@fabric/contract';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from './support/auth.ts';
import { createManualClock } from './support/clock.ts';
import {
  cancelUnfinishedJobs,
  completeRequest,
  deviceHeader,
  enrollNode,
  enrollRequest,
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
} from './support/compute-network.ts';
import { describeEachDatabase } from './support/databases.ts';

describeEachDatabase('nodes: enrollment, details, pause, earnings and unenrolling', (database) => {
  let app: FastifyInstance;
  const clock = createManualClock();

  beforeAll(async () => {
    app = await database.buildApp({ clock: clock.now });
  });
  afterEach(() => cancelUnfinishedJobs(database));

  const nodeCall = (method: 'GET' | 'POST' | 'DELETE', url: string, token: string) =>
    app.inject({ method, url, headers: bearer(token) });

  describe('POST /api/agent/register', () => {
    it('enrolls a device: 201 with the node and an fdt_ device token', async () => {
      const provider = await registerProvider(app);
      const response = await enrollRequest(app, provider, {
        device_id: 'macbook-pro-1234',
        name: 'Studio Mac',
        hardware_info: { cpu: 'Apple M2', cores: 8, memory: '16 GB' },
        supported_job_types: ['fibonacci', 'prime_sieve'],
        agent_version: '1.2.3',
      });
      expect(response.statusCode).toBe(201);
      const body = registerNodeResponseSchema.parse(response.json());
      expect(body.device_token).toMatch(/^fdt_[\w-]{43}$/);
      expect(body.node).toMatchObject({
        name: 'Studio Mac',
        device_id: 'macbook-pro-1234',
        status: 'online',
        jobs_completed: 0,
        lifetime_earnings: '0.00',
        hardware_info: { cpu: 'Apple M2', cores: 8, memory: '16 GB' },
        supported_job_types: ['fibonacci', 'prime_sieve'],
        agent_version: '1.2.3',
        current_job_id: null,
        last_heartbeat: clock.now().toISOString(),
      });
      const list = await nodeCall('GET', apiPaths.nodes.list, provider);
      expect(nodeListResponseSchema.parse(list.json()).nodes).toEqual([body.node]);
    });

    it('stores only a hash of the device token', async () => {
      const provider = await registerProvider(app);
      const { deviceToken, node } = await enrollNode(app, provider);
      const { db } = await database.connection();
      const rows = await db.execute<{ device_token_hash: string }>(
        `SELECT device_token_hash FROM nodes WHERE id = '${node.id}'`,
      );
      const stored = JSON.stringify(rows);
      expect(stored).not.toContain(deviceToken);
      expect(stored).toMatch(/[0-9a-f]{64}/);
    });

    it('enrolling the same device again re-enrolls the same node and replaces its token', async () => {
      const provider = await registerProvider(app);
      const first = await enrollNode(app, provider, { name: 'Kept name' });
      const again = await enrollRequest(app, provider, {
        device_id: first.deviceId,
        name: undefined,
        hardware_info: { cpu: 'Upgraded CPU' },
      });
      expect(again.statusCode).toBe(200);
      const body = registerNodeResponseSchema.parse(again.json());
      expect(body.node).toMatchObject({
        id: first.node.id,
        name: 'Kept name',
        hardware_info: { cpu: 'Upgraded CPU' },
      });
      expect(body.device_token).not.toBe(first.deviceToken);

      const old = await app.inject({
        method: 'POST',
        url: agentPaths.heartbeat,
        headers: deviceHeader(first.deviceToken),
        payload: {},
      });
      expect(old.statusCode).toBe(401);
      expect(old.json()).toMatchObject({ code: ERROR_CODES.invalidDeviceToken });
      expect((await heartbeat(app, body.device_token)).status).toBe('online');
      const list = await nodeCall('GET', apiPaths.nodes.list, provider);
      expect(nodeListResponseSchema.parse(list.json()).nodes).toHaveLength(1);
    });

    it('answers 409 naming device_id when another provider has enrolled the device', async () => {
      const owner = await registerProvider(app);
      const { deviceId } = await enrollNode(app, owner);
      const response = await enrollRequest(app, await registerProvider(app), {
        device_id: deviceId,
      });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({
        message:
          "This device is enrolled in another provider's account. That account must unenroll it first.",
        code: ERROR_CODES.conflict,
        field: 'device_id',
      });
    });

    it.each([
      [{ device_id: 'short' }, 'device_id'],
      [{ device_id: 'has spaces in it' }, 'device_id'],
      [{ supported_job_types: ['quantum_annealing'] }, 'supported_job_types.0'],
      [{ hardware_info: { cores: -1 } }, 'hardware_info.cores'],
      [{ agent_version: 'x'.repeat(41) }, 'agent_version'],
    ])('answers 400 naming the field for %j', async (fields, field) => {
      const response = await enrollRequest(app, await registerProvider(app), fields);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ field, code: ERROR_CODES.validation });
    });
  });

  describe('heartbeats and status', () => {
    it('keeps last_heartbeat and hardware_info current', async () => {
      const provider = await registerProvider(app);
      const { node, deviceToken } = await enrollNode(app, provider);
      clock.advanceBy(3000);
      const answer = await heartbeat(app, deviceToken, {
        hardware_info: { cpu: 'Busy CPU', memory: '32 GB' },
      });
      expect(answer).toEqual({
        status: 'online',
        abort_job_ids: [],
        server_time: clock.now().toISOString(),
      });
      expect(await getNode(app, provider, node.id)).toMatchObject({
        last_heartbeat: clock.now().toISOString(),
        hardware_info: { cpu: 'Busy CPU', memory: '32 GB' },
      });
    });

    it('shows a node offline once heartbeats stop for the lease timeout, online when they resume', async () => {
      const provider = await registerProvider(app);
      const { node, deviceToken } = await enrollNode(app, provider);
      clock.advanceBy(LEASE_TIMEOUT_SECONDS * 1000);
      expect((await getNode(app, provider, node.id)).status).toBe('offline');
      await app.scheduler.sweep();
      expect((await getNode(app, provider, node.id)).status).toBe('offline');
      expect((await heartbeat(app, deviceToken)).status).toBe('online');
      expect((await getNode(app, provider, node.id)).status).toBe('online');
    });

    it('answers abort for running jobs that are not the node’s', async () => {
      const provider = await registerProvider(app);
      const { deviceToken } = await enrollNode(app, provider);
      const stranger = '00000000-0000-4000-8000-000000000123';
      const answer = await heartbeat(app, deviceToken, { running_job_ids: [stranger] });
      expect(answer.abort_job_ids).toEqual([stranger]);
    });
  });

  describe('pause and resume', () => {
    it('pause answers the node paused; heartbeats say paused; resume answers it online', async () => {
      const provider = await registerProvider(app);
      const { node, deviceToken } = await enrollNode(app, provider);
      const paused = await nodeCall('POST', apiPaths.nodes.pause(node.id), provider);
      expect(paused.statusCode).toBe(200);
      expect(nodeSchema.parse(paused.json())).toMatchObject({ id: node.id, status: 'paused' });
      // Pausing twice is harmless.
      expect(
        (await nodeCall('POST', apiPaths.nodes.pause(node.id), provider)).json(),
      ).toMatchObject({ status: 'paused' });
      expect((await heartbeat(app, deviceToken)).status).toBe('paused');

      const resumed = await nodeCall('POST', apiPaths.nodes.resume(node.id), provider);
      expect(resumed.statusCode).toBe(200);
      expect(nodeSchema.parse(resumed.json()).status).toBe('online');
      expect((await heartbeat(app, deviceToken)).status).toBe('online');
    });
  });

  describe('GET /api/nodes/{id}/earnings', () => {
    it('answers zero totals and empty lists for a node that has run nothing', async () => {
      const provider = await registerProvider(app);
      const { node } = await enrollNode(app, provider);
      const response = await nodeCall('GET', apiPaths.nodes.earnings(node.id), provider);
      expect(response.statusCode).toBe(200);
      expect(nodeEarningsResponseSchema.parse(response.json())).toEqual({
        node_id: node.id,
        total: '0.00',
        by_day: [],
        by_job: [],
      });
    });

    it("lists each paid job and day: the owner's 80% share of the job's charge", async () => {
      const provider = await registerProvider(app);
      const enterprise = await registerEnterprise(app);
      const { node, deviceToken } = await enrollNode(app, provider);
      const job = await submitJob(app, enterprise);
      const leased = await leaseJob(app, deviceToken);
      expect(leased.job_id).toBe(job.id);
      const done = await completeRequest(app, deviceToken, leased, primeSieveResult(30));
      expect(done.json()).toEqual({ accepted: true, reason: null });
      const finishedAt = (await getJob(app, enterprise, job.id)).finished_at;

      const response = await nodeCall('GET', apiPaths.nodes.earnings(node.id), provider);
      // Charge: $0.01 + 100 ms × $0.000002 = $0.0102; the share, 80%, is $0.00816 → "0.01".
      expect(nodeEarningsResponseSchema.parse(response.json())).toEqual({
        node_id: node.id,
        total: '0.01',
        by_day: [{ date: finishedAt?.slice(0, 10), amount: '0.01' }],
        by_job: [{ job_id: job.id, amount: '0.01', finished_at: finishedAt }],
      });
      expect(await getNode(app, provider, node.id)).toMatchObject({
        jobs_completed: 1,
        lifetime_earnings: '0.01',
      });
    });
  });

  describe('uptime from heartbeats', () => {
    it('is the share of minutes with a heartbeat since enrollment (within 24 hours)', async () => {
      const provider = await registerProvider(app);
      const { node, deviceToken } = await enrollNode(app, provider);
      expect(node.uptime_24h).toBe(1);
      // Online for the enrollment minute and the next two (several calls in one minute count once).
      for (let minute = 1; minute <= 2; minute += 1) {
        clock.advanceBy(60_000);
        await heartbeat(app, deviceToken);
        await heartbeat(app, deviceToken);
      }
      expect((await getNode(app, provider, node.id)).uptime_24h).toBe(1);
      // Then silent for three minutes: 3 of 6 minutes online.
      clock.advanceBy(3 * 60_000);
      expect((await getNode(app, provider, node.id)).uptime_24h).toBe(0.5);
      const list = await nodeCall('GET', apiPaths.nodes.list, provider);
      expect(nodeListResponseSchema.parse(list.json()).nodes[0]?.uptime_24h).toBe(0.5);
    });
  });

  describe('GET /api/nodes/{id}/jobs', () => {
    it("lists the node's attempts newest first: running, then completed with usage", async () => {
      const provider = await registerProvider(app);
      const enterprise = await registerEnterprise(app);
      const { node, deviceToken } = await enrollNode(app, provider);
      const first = await submitJob(app, enterprise);
      const leased = await leaseJob(app, deviceToken);
      await completeRequest(app, deviceToken, leased, primeSieveResult(30));
      clock.advanceBy(1000);
      const second = await submitJob(app, enterprise, { job_type: 'fibonacci', params: { n: 5 } });
      await leaseJob(app, deviceToken);

      const response = await nodeCall('GET', apiPaths.nodes.jobs(node.id), provider);
      expect(response.statusCode).toBe(200);
      const { attempts } = nodeJobsResponseSchema.parse(response.json());
      expect(attempts).toMatchObject([
        {
          job_id: second.id,
          job_type: 'fibonacci',
          attempt_number: 1,
          outcome: null,
          ended_at: null,
          usage: null,
        },
        {
          job_id: first.id,
          job_type: 'prime_sieve',
          attempt_number: 1,
          outcome: 'completed',
          error: null,
          usage: { wall_ms: 120, cpu_ms: 100, peak_memory_bytes: 1_048_576 },
          earned: '0.01',
        },
      ]);
      const limited = await nodeCall('GET', `${apiPaths.nodes.jobs(node.id)}?limit=1`, provider);
      expect(nodeJobsResponseSchema.parse(limited.json()).attempts).toHaveLength(1);
    });

    it('answers 400 naming limit, 404 for another provider and 403 for an enterprise', async () => {
      const provider = await registerProvider(app);
      const { node } = await enrollNode(app, provider);
      const bad = await nodeCall('GET', `${apiPaths.nodes.jobs(node.id)}?limit=0`, provider);
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ field: 'limit', message: 'limit must be at least 1' });
      const stranger = await registerProvider(app);
      expect((await nodeCall('GET', apiPaths.nodes.jobs(node.id), stranger)).statusCode).toBe(404);
      const enterprise = await registerEnterprise(app);
      expect((await nodeCall('GET', apiPaths.nodes.jobs(node.id), enterprise)).statusCode).toBe(
        403,
      );
    });
  });

  describe('DELETE /api/nodes/{id}', () => {
    it('unenrolls: the token stops working and the node leaves the list', async () => {
      const provider = await registerProvider(app);
      const kept = await enrollNode(app, provider);
      const { node, deviceToken } = await enrollNode(app, provider);
      const response = await nodeCall('DELETE', apiPaths.nodes.detail(node.id), provider);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        message: 'The node was unenrolled. Its device token no longer works.',
      });

      const list = await nodeCall('GET', apiPaths.nodes.list, provider);
      expect(nodeListResponseSchema.parse(list.json()).nodes.map((entry) => entry.id)).toEqual([
        kept.node.id,
      ]);
      expect((await nodeCall('GET', apiPaths.nodes.detail(node.id), provider)).statusCode).toBe(
        404,
      );
      expect((await nodeCall('DELETE', apiPaths.nodes.detail(node.id), provider)).statusCode).toBe(
        404,
      );
      const refused = await leaseRequest(app, deviceToken);
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toMatchObject({ code: ERROR_CODES.invalidDeviceToken });
    });

    it('hands the running job back to the queue without counting the attempt', async () => {
      const provider = await registerProvider(app);
      const enterprise = await registerEnterprise(app);
      const first = await enrollNode(app, provider);
      const job = await submitJob(app, enterprise);
      expect((await leaseJob(app, first.deviceToken)).job_id).toBe(job.id);
      await nodeCall('DELETE', apiPaths.nodes.detail(first.node.id), provider);

      expect(await getJob(app, enterprise, job.id)).toMatchObject({
        status: 'queued',
        attempts: 0,
        queue_reason: null,
      });
      const second = await enrollNode(app, provider);
      const again = await leaseJob(app, second.deviceToken);
      expect(again).toMatchObject({ job_id: job.id, attempt: 1 });
    });

    it('the same provider can enroll the device again: the same node, not paused', async () => {
      const provider = await registerProvider(app);
      const { node, deviceId } = await enrollNode(app, provider);
      await nodeCall('POST', apiPaths.nodes.pause(node.id), provider);
      await nodeCall('DELETE', apiPaths.nodes.detail(node.id), provider);
      const again = await enrollRequest(app, provider, { device_id: deviceId });
      expect(again.statusCode).toBe(200);
      expect(registerNodeResponseSchema.parse(again.json()).node).toMatchObject({
        id: node.id,
        status: 'online',
      });
    });

    it('another provider can enroll an unenrolled device as a new node', async () => {
      const provider = await registerProvider(app);
      const { node, deviceId } = await enrollNode(app, provider);
      await nodeCall('DELETE', apiPaths.nodes.detail(node.id), provider);
      const newOwner = await registerProvider(app);
      const enrolled = await enrollRequest(app, newOwner, { device_id: deviceId });
      expect(enrolled.statusCode).toBe(201);
      expect(registerNodeResponseSchema.parse(enrolled.json()).node.id).not.toBe(node.id);
      expect(await lease(app, registerNodeResponseSchema.parse(enrolled.json()).device_token)).toBe(
        null,
      );
    });
  });
});
