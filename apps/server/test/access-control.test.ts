import { randomUUID } from 'node:crypto';
import {
  agentPaths,
  apiPaths,
  ERROR_CODES,
  errorBodySchema,
  nodeListResponseSchema,
} from '@fabric/contract';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer } from './support/auth.ts';
import {
  deviceHeader,
  enrollNode,
  enrollRequest,
  registerEnterprise,
  registerProvider,
  submitJob,
  type EnrolledNode,
} from './support/compute-network.ts';
import { describeEachDatabase } from './support/databases.ts';

type Method = 'GET' | 'POST' | 'DELETE';

interface Call {
  name: string;
  method: Method;
  url: (id: string) => string;
  payload?: Record<string, unknown>;
}

const nodeCalls: Call[] = [
  { name: 'GET /api/nodes/{id}', method: 'GET', url: apiPaths.nodes.detail },
  { name: 'GET /api/nodes/{id}/earnings', method: 'GET', url: apiPaths.nodes.earnings },
  { name: 'GET /api/nodes/{id}/jobs', method: 'GET', url: apiPaths.nodes.jobs },
  { name: 'POST /api/nodes/{id}/pause', method: 'POST', url: apiPaths.nodes.pause },
  { name: 'POST /api/nodes/{id}/resume', method: 'POST', url: apiPaths.nodes.resume },
  { name: 'DELETE /api/nodes/{id}', method: 'DELETE', url: apiPaths.nodes.detail },
];

const jobCalls: Call[] = [
  { name: 'GET /api/jobs/{id}', method: 'GET', url: apiPaths.jobs.detail },
  { name: 'POST /api/jobs/{id}/cancel', method: 'POST', url: apiPaths.jobs.cancel },
];

const leaseId = randomUUID();
const deviceCalls: Call[] = [
  { name: 'heartbeat', method: 'POST', url: () => agentPaths.heartbeat, payload: {} },
  { name: 'lease', method: 'POST', url: () => agentPaths.lease, payload: {} },
  {
    name: 'progress',
    method: 'POST',
    url: agentPaths.progress,
    payload: { lease_id: leaseId, progress: 0.5 },
  },
  {
    name: 'commit',
    method: 'POST',
    url: agentPaths.commit,
    payload: {
      lease_id: leaseId,
      result: {},
      commitment: {},
      usage: { wall_ms: 1, cpu_ms: 1, peak_memory_bytes: 1 },
    },
  },
  {
    name: 'complete',
    method: 'POST',
    url: agentPaths.complete,
    payload: { lease_id: leaseId, opening: {} },
  },
  {
    name: 'fail',
    method: 'POST',
    url: agentPaths.fail,
    payload: { lease_id: leaseId, error: 'boom', retryable: true },
  },
  { name: 'release', method: 'POST', url: agentPaths.release, payload: { lease_id: leaseId } },
];

describeEachDatabase('roles, ownership and tokens on node, job and agent calls', (database) => {
  let app: FastifyInstance;
  let provider: string;
  let otherProvider: string;
  let enterprise: string;
  let otherEnterprise: string;
  let node: EnrolledNode;
  let othersNode: EnrolledNode;
  let othersJobId: string;

  beforeAll(async () => {
    app = await database.buildApp();
    [provider, otherProvider, enterprise, otherEnterprise] = await Promise.all([
      registerProvider(app),
      registerProvider(app),
      registerEnterprise(app),
      registerEnterprise(app),
    ]);
    node = await enrollNode(app, provider);
    othersNode = await enrollNode(app, otherProvider);
    othersJobId = (await submitJob(app, otherEnterprise)).id;
  });

  const call = (spec: Call, id: string, headers: Record<string, string> = {}) =>
    app.inject({
      method: spec.method,
      url: spec.url(id),
      headers,
      ...(spec.payload ? { payload: spec.payload } : {}),
    });

  describe('node calls (node providers only)', () => {
    it.each(nodeCalls)('$name: 401 without a token', async (spec) => {
      const response = await call(spec, node.node.id);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ code: ERROR_CODES.unauthenticated });
    });

    it.each(nodeCalls)('$name: 403 for an enterprise', async (spec) => {
      const response = await call(spec, node.node.id, bearer(enterprise));
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({
        message: 'This is available to node provider accounts only.',
        code: ERROR_CODES.forbidden,
      });
    });

    it.each(nodeCalls)('$name: 404 for another provider’s node', async (spec) => {
      const response = await call(spec, othersNode.node.id, bearer(provider));
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: 'Node not found', code: ERROR_CODES.notFound });
    });

    it.each(nodeCalls)('$name: 404 for an id that does not exist', async (spec) => {
      const response = await call(spec, randomUUID(), bearer(provider));
      expect(response.statusCode).toBe(404);
    });

    it.each(nodeCalls)('$name: 400 naming the field for a malformed id', async (spec) => {
      const response = await call(spec, 'not-a-uuid', bearer(provider));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ field: 'id', code: ERROR_CODES.validation });
    });

    it('GET /api/nodes: 401 without a token, 403 for an enterprise', async () => {
      expect((await app.inject({ url: apiPaths.nodes.list })).statusCode).toBe(401);
      const response = await app.inject({ url: apiPaths.nodes.list, headers: bearer(enterprise) });
      expect(response.statusCode).toBe(403);
    });

    it('GET /api/nodes lists only the caller’s nodes', async () => {
      const response = await app.inject({ url: apiPaths.nodes.list, headers: bearer(provider) });
      expect(response.statusCode).toBe(200);
      const ids = nodeListResponseSchema.parse(response.json()).nodes.map((entry) => entry.id);
      expect(ids).toEqual([node.node.id]);
    });

    it('the other provider’s node is untouched by the refused calls', async () => {
      const response = await app.inject({
        url: apiPaths.nodes.detail(othersNode.node.id),
        headers: bearer(otherProvider),
      });
      expect(response.json()).toMatchObject({ status: 'online' });
    });
  });

  describe('job calls (enterprises only)', () => {
    it.each(jobCalls)('$name: 401 without a token', async (spec) => {
      expect((await call(spec, othersJobId)).statusCode).toBe(401);
    });

    it.each(jobCalls)('$name: 403 for a node provider', async (spec) => {
      const response = await call(spec, othersJobId, bearer(provider));
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({
        message: 'This is available to enterprise accounts only.',
      });
    });

    it.each(jobCalls)('$name: 404 for another enterprise’s job', async (spec) => {
      const response = await call(spec, othersJobId, bearer(enterprise));
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: 'Job not found', code: ERROR_CODES.notFound });
    });

    it.each(jobCalls)('$name: 400 naming the field for a malformed id', async (spec) => {
      const response = await call(spec, '1234', bearer(enterprise));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ field: 'id' });
    });

    it('GET /api/jobs and POST /api/jobs/submit: 401 without a token, 403 for a provider', async () => {
      const submit = { method: 'POST' as const, url: apiPaths.jobs.submit };
      const payload = { job_type: 'fibonacci', params: {} };
      expect((await app.inject({ url: apiPaths.jobs.list })).statusCode).toBe(401);
      expect((await app.inject({ ...submit, payload })).statusCode).toBe(401);
      const list = await app.inject({ url: apiPaths.jobs.list, headers: bearer(provider) });
      expect(list.statusCode).toBe(403);
      const submitted = await app.inject({ ...submit, payload, headers: bearer(provider) });
      expect(submitted.statusCode).toBe(403);
    });

    it('the other enterprise’s job was not cancelled by the refused calls', async () => {
      const response = await app.inject({
        url: apiPaths.jobs.detail(othersJobId),
        headers: bearer(otherEnterprise),
      });
      expect(response.json()).toMatchObject({ status: 'queued' });
    });
  });

  describe('agent calls (device token only)', () => {
    it.each(deviceCalls)('$name: 401 without a token', async (spec) => {
      const response = await call(spec, othersJobId);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ code: ERROR_CODES.unauthenticated });
    });

    it.each(deviceCalls)(
      '$name: 401 INVALID_DEVICE_TOKEN for an unknown device token',
      async (spec) => {
        const response = await call(spec, othersJobId, deviceHeader(`fdt_${'x'.repeat(43)}`));
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual({
          message:
            'This device token is no longer valid: the node was unenrolled or enrolled again. Enroll the device again.',
          code: ERROR_CODES.invalidDeviceToken,
        });
      },
    );

    it.each(deviceCalls)('$name: 401 for a user’s access token', async (spec) => {
      const response = await call(spec, othersJobId, bearer(provider));
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ code: ERROR_CODES.invalidDeviceToken });
      expect(errorBodySchema.parse(response.json()).message).toContain('not a device token');
    });

    it('a device token does not open user calls', async () => {
      const response = await app.inject({
        url: apiPaths.nodes.list,
        headers: deviceHeader(node.deviceToken),
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ code: ERROR_CODES.invalidToken });
    });

    it('agent calls on a job leased to another node answer 404', async () => {
      for (const spec of deviceCalls.slice(2)) {
        const response = await call(spec, othersJobId, deviceHeader(node.deviceToken));
        expect(response.statusCode, spec.name).toBe(404);
        expect(response.json()).toMatchObject({ code: ERROR_CODES.notFound });
      }
    });

    it('register: 401 without a token, 403 for an enterprise', async () => {
      expect((await enrollRequest(app, '')).statusCode).toBe(401);
      const response = await enrollRequest(app, enterprise);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({
        message: 'This is available to node provider accounts only.',
      });
    });
  });
});
