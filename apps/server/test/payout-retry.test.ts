import pino from 'pino';
import { beforeAll, expect, it } from 'vitest';
import {
  PaymentProviderError,
  type PaymentProvider,
  type PayoutRequest,
} from '../src/payments/payment-provider.ts';
import { createRepositories, type Repositories } from '../src/repositories/index.ts';
import { postLedgerTransaction } from '../src/services/ledger.ts';
import { createPaymentService } from '../src/services/payment.service.ts';
import { registerUser } from './support/auth.ts';
import { createManualClock } from './support/clock.ts';
import { describeWithPglite } from './support/databases.ts';

// A payout whose provider call got no clear answer (a timeout, a 5xx) keeps its money in flight
// and is asked about again with the same idempotency key; it is never returned to the balance on
// a guess, which could pay the provider twice.

/** A provider that loses its first answer, then answers; it records every call. */
function flakyProvider(): PaymentProvider & { calls: PayoutRequest[] } {
  const calls: PayoutRequest[] = [];
  const unused = () => {
    throw new Error('not used in this test');
  };
  return {
    name: 'stripe',
    calls,
    createOnboardingLink: unused,
    getAccountStatus: unused,
    startCreditPurchase: unused,
    purchaseFingerprints: unused,
    parseWebhook: unused,
    sendPayout(request) {
      calls.push(request);
      if (calls.length === 1) {
        return Promise.reject(
          new PaymentProviderError('The payment provider could not be reached; try again.', {
            isOutcomeUnknown: true,
          }),
        );
      }
      return Promise.resolve({ status: 'paid', reference: `tr_${request.payoutId}` });
    },
  };
}

describeWithPglite('payouts without a clear answer', (database) => {
  let repositories: Repositories;
  const clock = createManualClock();

  beforeAll(async () => {
    repositories = createRepositories((await database.connection()).db);
  });

  it('stay in flight and are completed by a retry with the same idempotency key', async () => {
    const app = await database.buildApp({ clock: clock.now });
    const { auth } = await registerUser(app, { role: 'node_provider', name: 'P' });
    const userId = auth.user_id;
    await repositories.payments.upsertAccount({
      userId,
      provider: 'stripe',
      accountId: `acct_${userId.slice(0, 8)}`,
      payoutsEnabled: true,
      currentlyDue: [],
      now: clock.now(),
    });
    await postLedgerTransaction(repositories, {
      kind: 'settlement',
      description: 'Test earnings',
      createdAt: clock.now(),
      legs: [
        { kind: 'outside_world', userId: null, amountMicros: -5_000_000 },
        { kind: 'provider_available', userId, amountMicros: 5_000_000 },
      ],
    });

    const provider = flakyProvider();
    const payments = createPaymentService({
      repositories,
      provider,
      clock: clock.now,
      publicUrl: 'http://localhost',
      logger: pino({ level: 'silent' }),
    });

    const first = await payments.requestPayout(userId, 3, 'retry-me');
    expect(first.payout).toMatchObject({ amount: 3, status: 'pending' });
    let balances = await repositories.ledger.balancesOfUser(userId);
    expect(balances.provider_available).toBe(2_000_000);
    expect(balances.payouts_in_flight).toBe(3_000_000);

    // Too early: the first call may still be under way.
    expect(await payments.retryPendingPayouts()).toBe(0);
    clock.advanceBy(2 * 60_000);
    expect(await payments.retryPendingPayouts()).toBe(1);

    expect(provider.calls).toHaveLength(2);
    expect(provider.calls[1]?.idempotencyKey).toBe(provider.calls[0]?.idempotencyKey);
    balances = await repositories.ledger.balancesOfUser(userId);
    expect(balances.provider_available).toBe(2_000_000);
    expect(balances.payouts_in_flight).toBe(0);
    expect(await repositories.ledger.audit()).toEqual([]);
    expect(await payments.retryPendingPayouts()).toBe(0);
    await app.close();
  });
});
