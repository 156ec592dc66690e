import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { apiPaths } from '@fabric/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRepositories, type Repositories } from '../src/repositories/index.ts';
import { registerUser } from './support/auth.ts';
import { describeWithPglite } from './support/databases.ts';
import { balanceOf, expectLedgerSound } from './support/money.ts';
import { paidSessionAnswer, requestUrl } from './support/stripe-recorded.ts';

// The Stripe webhook route with Stripe configured: a signed checkout.session.completed grants the
// purchase's credits once, however often Stripe delivers it; an unsigned or tampered one changes
// nothing. (The provider's requests to Stripe are tested against recorded answers in
// src/payments/stripe-provider.test.ts; no network is used here.)

const WEBHOOK_SECRET = 'whsec_test_webhook_secret_for_fabric';
const fixture = readFileSync(
  new URL('../src/payments/fixtures/stripe/event-checkout-session-completed.json', import.meta.url),
  'utf8',
);

function signed(body: string, timestamp: number, secret = WEBHOOK_SECRET): string {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${signature}`;
}

describeWithPglite('Stripe webhooks', (database) => {
  let app: FastifyInstance;
  let repositories: Repositories;

  beforeAll(async () => {
    app = await database.buildApp({
      config: { stripeSecretKey: 'sk_test_emulated', stripeWebhookSecret: WEBHOOK_SECRET },
      // Stripe is asked only what paid a session (recorded answer).
      stripeFetch: (input) => {
        const url = requestUrl(input);
        return Promise.resolve(
          paidSessionAnswer(url) ??
            new Response('{"error":{"message":"unexpected"}}', { status: 400 }),
        );
      },
    });
    repositories = createRepositories((await database.connection()).db);
  });
  afterAll(async () => {
    await expectLedgerSound(database);
  });

  async function pendingPurchase(amountMicros: number) {
    const user = await registerUser(app, { role: 'enterprise' });
    const purchase = await repositories.payments.insertPurchase({
      userId: user.auth.user_id,
      amountMicros,
      status: 'pending',
      provider: 'stripe',
      idempotencyKey: null,
    });
    if (!purchase) throw new Error('purchase not inserted');
    return { user, purchase };
  }

  function eventFor(purchaseId: string): string {
    const event = JSON.parse(fixture) as {
      data: { object: { metadata: Record<string, string>; client_reference_id: string | null } };
    };
    event.data.object.metadata.purchase_id = purchaseId;
    event.data.object.client_reference_id = purchaseId;
    return JSON.stringify(event);
  }

  const post = (body: string, signature?: string) =>
    app.inject({
      method: 'POST',
      url: apiPaths.payment.stripeWebhook,
      headers: {
        'content-type': 'application/json',
        ...(signature ? { 'stripe-signature': signature } : {}),
      },
      payload: body,
    });

  it('grants a paid checkout once, however often it is delivered', async () => {
    const { user, purchase } = await pendingPurchase(25_000_000);
    const body = eventFor(purchase.id);
    const now = Math.floor(Date.now() / 1000);
    expect((await post(body, signed(body, now))).json()).toEqual({ received: true });
    expect((await post(body, signed(body, now + 1))).statusCode).toBe(200);
    expect((await balanceOf(app, user.auth.access_token)).balance).toBe(25);
  });

  it('refuses unsigned, wrongly signed, tampered and stale events with 400 and changes nothing', async () => {
    const { user, purchase } = await pendingPurchase(10_000_000);
    const body = eventFor(purchase.id);
    const now = Math.floor(Date.now() / 1000);
    const refusals = [
      await post(body),
      await post(body, signed(body, now, 'whsec_someone_else')),
      await post(body.replace('"livemode":false', '"livemode":true'), signed(body, now)),
      await post(body, signed(body, now - 3600)),
    ];
    for (const response of refusals) {
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ message: 'The webhook signature is not valid' });
    }
    expect((await balanceOf(app, user.auth.access_token)).balance).toBe(0);
  });
});
