import { agentPaths, apiPaths } from '@fabric/contract';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { createRepositories, type Repositories } from '../src/repositories/index.ts';
import { bearer, registerUser } from './support/auth.ts';
import { createManualClock } from './support/clock.ts';
import { agentCall, enrollNode, lease, primeSieveResult } from './support/compute-network.ts';
import { describeWithPglite } from './support/databases.ts';
import {
  addCreditsRequest,
  completeWithCpu,
  connectSandboxBank,
  payoutRequest,
} from './support/money.ts';

// Random sequences of everything that moves money — top-ups, submits (holds), jobs completed,
// failed by a device or by themselves, cancellations queued or running, month ends with
// settlement, payouts — checked after every step: the ledger balances, no account is below zero,
// and each user's money is exactly explained by what happened to it.

type Operation =
  | { type: 'topUp'; enterprise: number; cents: number }
  | { type: 'submit'; enterprise: number }
  | {
      type: 'run';
      provider: number;
      cpuMs: number;
      ending: 'complete' | 'deviceFailure' | 'ownFailure' | 'keepRunning';
    }
  | { type: 'cancel'; enterprise: number; pick: number }
  | { type: 'monthEnd' }
  | { type: 'payout'; provider: number; cents: number };

const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({
    type: fc.constant('topUp' as const),
    enterprise: fc.nat(1),
    cents: fc.integer({ min: 1, max: 2000 }),
  }),
  fc.record({ type: fc.constant('submit' as const), enterprise: fc.nat(1) }),
  fc.record({
    type: fc.constant('run' as const),
    provider: fc.nat(1),
    cpuMs: fc.integer({ min: 0, max: 2_000_000 }),
    ending: fc.constantFrom(
      'complete' as const,
      'deviceFailure' as const,
      'ownFailure' as const,
      'keepRunning' as const,
    ),
  }),
  fc.record({ type: fc.constant('cancel' as const), enterprise: fc.nat(1), pick: fc.nat(5) }),
  fc.record({ type: fc.constant('monthEnd' as const) }),
  fc.record({
    type: fc.constant('payout' as const),
    provider: fc.nat(1),
    cents: fc.integer({ min: 1, max: 300 }),
  }),
);

describeWithPglite('ledger properties', (database) => {
  let app: FastifyInstance;
  let repositories: Repositories;
  const clock = createManualClock(new Date('2026-11-20T12:00:00.000Z'));

  beforeAll(async () => {
    app = await database.buildApp({
      clock: clock.now,
      config: { accessTokenTtlSeconds: 10 * 365 * 86_400 },
    });
    repositories = createRepositories((await database.connection()).db);
  });

  it('no sequence of operations creates, loses or double-counts money', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 14 }), async (operations) => {
        const enterprises = await Promise.all(
          [0, 1].map(async () => (await registerUser(app, { role: 'enterprise' })).auth),
        );
        const providers = await Promise.all(
          [0, 1].map(async () => {
            const auth = (await registerUser(app, { role: 'node_provider', name: 'P' })).auth;
            const { deviceToken } = await enrollNode(app, auth.access_token);
            await connectSandboxBank(app, auth.access_token);
            return { auth, deviceToken };
          }),
        );
        const toppedUp = [0, 0];
        const paidOut = [0, 0];

        for (const step of operations) {
          clock.advanceBy(1000);
          switch (step.type) {
            case 'topUp': {
              const token = enterprises[step.enterprise]?.access_token ?? '';
              const response = await addCreditsRequest(app, token, step.cents / 100);
              expect(response.statusCode).toBe(200);
              toppedUp[step.enterprise] = (toppedUp[step.enterprise] ?? 0) + step.cents * 10_000;
              break;
            }
            case 'submit': {
              const response = await app.inject({
                method: 'POST',
                url: apiPaths.jobs.submit,
                headers: bearer(enterprises[step.enterprise]?.access_token ?? ''),
                payload: { job_type: 'prime_sieve', params: { limit: 30 } },
              });
              expect([201, 402]).toContain(response.statusCode);
              break;
            }
            case 'run': {
              const deviceToken = providers[step.provider]?.deviceToken ?? '';
              const leased = await lease(app, deviceToken);
              if (!leased) break;
              clock.advanceBy(step.cpuMs);
              if (step.ending === 'complete') {
                await completeWithCpu(app, deviceToken, leased, primeSieveResult(30), step.cpuMs);
              } else if (step.ending !== 'keepRunning') {
                await agentCall(app, deviceToken, agentPaths.fail(leased.job_id), {
                  lease_id: leased.lease_id,
                  error: 'stopped',
                  retryable: step.ending === 'deviceFailure',
                  usage: { wall_ms: step.cpuMs, cpu_ms: step.cpuMs, peak_memory_bytes: 1 },
                });
              }
              break;
            }
            case 'cancel': {
              const token = enterprises[step.enterprise]?.access_token ?? '';
              const list = await app.inject({
                url: `${apiPaths.jobs.list}?status=running`,
                headers: bearer(token),
              });
              const active = list.json<{ jobs: { id: string }[] }>().jobs;
              const job = active[step.pick % Math.max(1, active.length)];
              if (job) {
                await app.inject({
                  method: 'POST',
                  url: apiPaths.jobs.cancel(job.id),
                  headers: bearer(token),
                });
              }
              break;
            }
            case 'monthEnd': {
              const now = clock.now();
              clock.advanceBy(
                Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 1) - now.getTime(),
              );
              // Long silences take leases back, like the sweeper does.
              await app.scheduler.sweep();
              await app.payments.settle();
              break;
            }
            case 'payout': {
              const provider = providers[step.provider];
              const response = await payoutRequest(
                app,
                provider?.auth.access_token ?? '',
                step.cents / 100,
              );
              expect([200, 409]).toContain(response.statusCode);
              if (response.statusCode === 200) {
                paidOut[step.provider] = (paidOut[step.provider] ?? 0) + step.cents * 10_000;
              }
              break;
            }
          }

          expect(await repositories.ledger.audit()).toEqual([]);
          for (const [index, enterprise] of enterprises.entries()) {
            const balances = await repositories.ledger.balancesOfUser(enterprise.user_id);
            const charged = -(await repositories.ledger.netOfKinds(enterprise.user_id, [
              'job_charge',
            ]));
            // Every cent bought is available, held for a job, or was charged for a job.
            expect(balances.enterprise_credits + balances.enterprise_holds + charged).toBe(
              toppedUp[index],
            );
          }
          for (const [index, provider] of providers.entries()) {
            const balances = await repositories.ledger.balancesOfUser(provider.auth.user_id);
            const earned = await repositories.ledger.netOfKinds(provider.auth.user_id, [
              'job_charge',
            ]);
            // Every cent earned is pending, available, or was paid out.
            expect(
              balances.provider_pending + balances.provider_available + (paidOut[index] ?? 0),
            ).toBe(earned);
            expect(balances.payouts_in_flight).toBe(0);
          }
        }
      }),
      { numRuns: 20 },
    );
  });
});
