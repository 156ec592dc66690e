import { randomUUID } from 'node:crypto';
import {
  agentPaths,
  apiPaths,
  heartbeatResponseSchema,
  jobSchema,
  leaseResponseSchema,
  nodeSchema,
  registerNodeResponseSchema,
  type HeartbeatRequest,
  type Job,
  type JobType,
  type Lease,
  type Node,
  type SubmitJobRequest,
} from '@fabric/contract';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { bearer, registerUser } from './auth.ts';
import type { TestDatabase } from './databases.ts';
import { reportResult } from './proofs.ts';

export const DEFAULT_USAGE = { wall_ms: 120, cpu_ms: 100, peak_memory_bytes: 1_048_576 };

export const RUNNABLE_TYPES: JobType[] = ['matrix_multiply', 'fibonacci', 'prime_sieve'];

export function deviceHeader(deviceToken: string): { authorization: string } {
  return { authorization: `Bearer ${deviceToken}` };
}

export async function registerProvider(app: FastifyInstance): Promise<string> {
  return (await registerUser(app, { role: 'node_provider', name: 'Provider' })).auth.access_token;
}

/** Credits every test enterprise buys first, so each can hold the price of many jobs. */
export const TEST_CREDITS_USD = 1000;

/** An enterprise with TEST_CREDITS_USD of credits bought through the (sandbox) card flow. */
export async function registerEnterprise(
  app: FastifyInstance,
  { credits = TEST_CREDITS_USD }: { credits?: number } = {},
): Promise<string> {
  const token = (await registerUser(app, { role: 'enterprise' })).auth.access_token;
  if (credits > 0) {
    const response = await app.inject({
      method: 'POST',
      url: apiPaths.payment.addCredits,
      headers: bearer(token),
      payload: { amount: credits },
    });
    expect(response.statusCode, response.body).toBe(200);
  }
  return token;
}

export interface EnrolledNode {
  node: Node;
  deviceToken: string;
  deviceId: string;
}

export function enrollRequest(
  app: FastifyInstance,
  accessToken: string,
  fields: Record<string, unknown> = {},
) {
  return app.inject({
    method: 'POST',
    url: agentPaths.register,
    headers: bearer(accessToken),
    payload: {
      device_id: `device-${randomUUID()}`,
      name: 'Test device',
      hardware_info: { cpu: 'Test CPU', cores: 4, memory: '8 GB', os: 'linux', arch: 'x64' },
      supported_job_types: RUNNABLE_TYPES,
      agent_version: '0.1.0',
      ...fields,
    },
  });
}

export async function enrollNode(
  app: FastifyInstance,
  providerToken: string,
  fields: Record<string, unknown> = {},
): Promise<EnrolledNode> {
  const response = await enrollRequest(app, providerToken, fields);
  expect(response.statusCode, response.body).toBe(201);
  const body = registerNodeResponseSchema.parse(response.json());
  return { node: body.node, deviceToken: body.device_token, deviceId: body.node.device_id };
}

export async function submitJob(
  app: FastifyInstance,
  enterpriseToken: string,
  body: SubmitJobRequest = { job_type: 'prime_sieve', params: { limit: 30 } },
): Promise<Job> {
  const response = await app.inject({
    method: 'POST',
    url: apiPaths.jobs.submit,
    headers: bearer(enterpriseToken),
    payload: body,
  });
  expect(response.statusCode, response.body).toBe(201);
  return jobSchema.parse(response.json());
}

export async function getJob(app: FastifyInstance, enterpriseToken: string, id: string) {
  const response = await app.inject({
    url: apiPaths.jobs.detail(id),
    headers: bearer(enterpriseToken),
  });
  expect(response.statusCode, response.body).toBe(200);
  return jobSchema.parse(response.json());
}

export async function getNode(app: FastifyInstance, providerToken: string, id: string) {
  const response = await app.inject({
    url: apiPaths.nodes.detail(id),
    headers: bearer(providerToken),
  });
  expect(response.statusCode, response.body).toBe(200);
  return nodeSchema.parse(response.json());
}

export function leaseRequest(app: FastifyInstance, deviceToken: string, waitSeconds = 0) {
  return app.inject({
    method: 'POST',
    url: agentPaths.lease,
    headers: deviceHeader(deviceToken),
    payload: { wait_seconds: waitSeconds },
  });
}

export async function lease(
  app: FastifyInstance,
  deviceToken: string,
  waitSeconds = 0,
): Promise<Lease | null> {
  const response = await leaseRequest(app, deviceToken, waitSeconds);
  expect(response.statusCode, response.body).toBe(200);
  return leaseResponseSchema.parse(response.json()).lease;
}

export async function leaseJob(app: FastifyInstance, deviceToken: string): Promise<Lease> {
  const leased = await lease(app, deviceToken);
  expect(leased).not.toBeNull();
  return leased as Lease;
}

export async function heartbeat(
  app: FastifyInstance,
  deviceToken: string,
  body: HeartbeatRequest = {},
) {
  const response = await app.inject({
    method: 'POST',
    url: agentPaths.heartbeat,
    headers: deviceHeader(deviceToken),
    payload: body,
  });
  expect(response.statusCode, response.body).toBe(200);
  return heartbeatResponseSchema.parse(response.json());
}

export function agentCall(
  app: FastifyInstance,
  deviceToken: string,
  path: string,
  payload: Record<string, unknown>,
) {
  return app.inject({ method: 'POST', url: path, headers: deviceHeader(deviceToken), payload });
}

/** The true prime_sieve result for a small limit (what an honest agent reports). */
/** The honest result for limit 10^11: π(10^11) and the largest prime below it are known values. */
export const PRIME_SIEVE_1E11_RESULT = {
  limit: 100_000_000_000,
  count: 4_118_054_813,
  largest: 99_999_999_977,
  first: [2, 3, 5, 7, 11, 13, 17, 19, 23, 29],
};

export function primeSieveResult(limit: number) {
  const isComposite = new Uint8Array(limit + 1);
  const first: number[] = [];
  let count = 0;
  let largest: number | null = null;
  for (let candidate = 2; candidate <= limit; candidate += 1) {
    if (isComposite[candidate]) continue;
    count += 1;
    largest = candidate;
    if (first.length < 10) first.push(candidate);
    for (let multiple = candidate * candidate; multiple <= limit; multiple += candidate) {
      isComposite[multiple] = 1;
    }
  }
  return { limit, count, largest, first };
}

/** Reports `result` for the lease as an honest agent does: commit, then open the challenge. */
export function completeRequest(
  app: FastifyInstance,
  deviceToken: string,
  leased: Lease,
  result: Record<string, unknown>,
) {
  return reportResult(app, deviceToken, leased, result, DEFAULT_USAGE);
}

/** Ends every unfinished job, so a suite's next test starts with an empty queue. */
export async function cancelUnfinishedJobs(database: TestDatabase): Promise<void> {
  const { db } = await database.connection();
  await db.execute(
    sql`UPDATE jobs SET status = 'cancelled', current_lease_id = NULL, lease_expires_at = NULL
        WHERE status IN ('queued', 'running')`,
  );
}

/** Waits (without asserting anything about time) until `condition` holds. */
export async function waitUntil(condition: () => boolean, what: string): Promise<void> {
  for (let round = 0; round < 2000; round += 1) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`Gave up waiting until ${what}`);
}
