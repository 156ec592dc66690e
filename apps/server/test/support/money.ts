import {
  apiPaths,
  balanceResponseSchema,
  transactionListResponseSchema,
  type BalanceResponse,
  type Lease,
} from '@fabric/contract';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeAll, expect } from 'vitest';
import type { AppConfig } from '../../src/config/env.ts';
import { createRepositories } from '../../src/repositories/index.ts';
import { bearer } from './auth.ts';
import { createManualClock, type ManualClock } from './clock.ts';
import { cancelUnfinishedJobs, completeRequest } from './compute-network.ts';
import { reportResult } from './proofs.ts';
import type { TestDatabase } from './databases.ts';

export interface MoneyHarness {
  /** Built before the suite's first test. */
  readonly app: FastifyInstance;
  /** Mid-month (2026-11-20 12:00 UTC), so a month can end inside a test. */
  readonly clock: ManualClock;
}

/**
 * The app of a suite about money and time: on a manual clock, with tokens that outlive the
 * months the tests move through; after each test, unfinished jobs are cancelled (their holds
 * return) and every ledger invariant is checked.
 */
export function moneyHarness(
  database: TestDatabase,
  config: Partial<AppConfig> = {},
): MoneyHarness {
  const clock = createManualClock(new Date('2026-11-20T12:00:00.000Z'));
  let app: FastifyInstance | undefined;
  beforeAll(async () => {
    app = await database.buildApp({
      clock: clock.now,
      config: { accessTokenTtlSeconds: 400 * 86_400, ...config },
    });
  });
  afterEach(async () => {
    await cancelUnfinishedJobs(database);
    await expectLedgerSound(database);
  });
  return {
    clock,
    get app() {
      if (!app) throw new Error('The app is built in beforeAll: use it inside tests');
      return app;
    },
  };
}

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
  return reportResult(app, deviceToken, leased, result, {
    wall_ms: cpuMs,
    cpu_ms: cpuMs,
    peak_memory_bytes: 1_048_576,
  });
}

/** Every ledger invariant holds (entries sum to zero per transaction and in all, balances match). */
export async function expectLedgerSound(database: TestDatabase): Promise<void> {
  const repositories = createRepositories((await database.connection()).db);
  expect(await repositories.ledger.audit()).toEqual([]);
}

export { completeRequest };
