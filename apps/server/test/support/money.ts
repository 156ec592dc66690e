import {
  agentPaths,
  apiPaths,
  balanceResponseSchema,
  transactionListResponseSchema,
  type BalanceResponse,
  type Lease,
} from '@fabric/contract';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { createRepositories } from '../../src/repositories/index.ts';
import { bearer } from './auth.ts';
import { agentCall, completeRequest } from './compute-network.ts';
import type { TestDatabase } from './databases.ts';

export async function balanceOf(app: FastifyInstance, token: string): Promise<BalanceResponse> {
  const response = await app.inject({ url: apiPaths.payment.balance, headers: bearer(token) });
  expect(response.statusCode, response.body).toBe(200);
  return balanceResponseSchema.parse(response.json());
}

export async function transactionsOf(app: FastifyInstance, token: string, query = '') {
  const response = await app.inject({
    url: `${apiPaths.payment.transactions}${query}`,
    headers: bearer(token),
  });
  expect(response.statusCode, response.body).toBe(200);
  return transactionListResponseSchema.parse(response.json());
}

export function addCreditsRequest(
  app: FastifyInstance,
  token: string,
  amount: unknown,
  idempotencyKey?: string,
) {
  return app.inject({
    method: 'POST',
    url: apiPaths.payment.addCredits,
    headers: { ...bearer(token), ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
    payload: { amount },
  });
}

export function payoutRequest(
  app: FastifyInstance,
  token: string,
  amount: unknown,
  idempotencyKey?: string,
) {
  return app.inject({
    method: 'POST',
    url: apiPaths.payment.payout,
    headers: { ...bearer(token), ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
    payload: { amount },
  });
}

/** Connects the provider's bank through the sandbox's onboarding page, as a browser would. */
export async function connectSandboxBank(app: FastifyInstance, token: string): Promise<void> {
  const onboard = await app.inject({
    url: apiPaths.payment.connectOnboard,
    headers: bearer(token),
  });
  expect(onboard.statusCode, onboard.body).toBe(200);
  const link = new URL(onboard.json<{ url: string }>().url);
  const page = await app.inject({ url: `${link.pathname}${link.search}` });
  expect(page.statusCode).toBe(200);
  const done = await app.inject({
    method: 'POST',
    url: `${link.pathname}${link.search}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: '',
  });
  expect(done.statusCode, done.body).toBe(303);
  expect(done.headers.location).toBe('/settings?stripe_connected=true');
}

/** Reports the lease's job done with the given CPU time (the honest prime_sieve result). */
export function completeWithCpu(
  app: FastifyInstance,
  deviceToken: string,
  leased: Lease,
  result: Record<string, unknown>,
  cpuMs: number,
) {
  return agentCall(app, deviceToken, agentPaths.complete(leased.job_id), {
    lease_id: leased.lease_id,
    result,
    usage: { wall_ms: cpuMs, cpu_ms: cpuMs, peak_memory_bytes: 1_048_576 },
  });
}

/** Every ledger invariant holds (entries sum to zero per transaction and in all, balances match). */
export async function expectLedgerSound(database: TestDatabase): Promise<void> {
  const repositories = createRepositories((await database.connection()).db);
  expect(await repositories.ledger.audit()).toEqual([]);
}

export { completeRequest };
