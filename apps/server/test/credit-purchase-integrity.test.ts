import { createHmac, randomUUID } from 'node:crypto';
import { apiPaths, ERROR_CODES, IDEMPOTENCY_KEY_HEADER } from '@fabric/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepositories, type Repositories } from '../src/repositories/index.ts';
import { registerUser } from './support/auth.ts';
import { describeEachDatabase } from './support/databases.ts';
import { balanceOf, expectLedgerSound } from './support/money.ts';
import { paidSessionAnswer, recordedStripe, requestUrl } from './support/stripe-recorded.ts';

// The credits race of the trust issue: two add-credits requests with one Idempotency-Key and
// different amounts must never open a Checkout for one amount against a purchase of another, and
// the webhook grants a purchase only for the amount and currency it was made for, never a failed
// one. The Stripe side is an emulator built from recorded answers with Stripe's idempotency rule
// (a key reused with other parameters is refused).

const WEBHOOK_SECRET = 'whsec_test_webhook_secret_for_fabric';

const recorded = recordedStripe;

interface CheckoutCall {
  idempotencyKey: string;
  purchaseId: string;
  amountCents: number;
}

/** Stripe's Checkout Sessions endpoint as far as this test needs it, with its idempotency rule. */
function stripeEmulator() {
  const sessionsByKey = new Map<string, { params: string; body: string }>();
  const calls: CheckoutCall[] = [];
  const fetchFn: typeof fetch = async (input, init) => {
    const url = requestUrl(input);
    // The webhook asks what paid the session before granting it.
    const retrieved = paidSessionAnswer(url);
    if (retrieved) return retrieved;
    if (!url.endsWith('/v1/checkout/sessions')) throw new Error(`unexpected request to ${url}`);
    const rawBody = typeof init?.body === 'string' ? init.body : '';
    const form = new URLSearchParams(rawBody);
    const key = new Headers(init?.headers).get('idempotency-key') ?? '';
    const purchaseId = form.get('client_reference_id') ?? '';
    const amountCents = Number(form.get('line_items[0][price_data][unit_amount]'));
    calls.push({ idempotencyKey: key, purchaseId, amountCents });
    // Let concurrent requests interleave as they would over a network.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
    const earlier = sessionsByKey.get(key);
    if (earlier && earlier.params !== rawBody) {
      return new Response(recorded('error-idempotency'), { status: 400 });
    }
    if (earlier) return new Response(earlier.body, { status: 200 });
    const session = JSON.parse(recorded('checkout-session')) as Record<string, unknown>;
    session.id = `cs_test_${randomUUID().replaceAll('-', '')}`;
    session.amount_total = amountCents;
    session.amount_subtotal = amountCents;
    session.client_reference_id = purchaseId;
    session.metadata = { purchase_id: purchaseId };
    const body = JSON.stringify(session);
    sessionsByKey.set(key, { params: rawBody, body });
    return new Response(body, { status: 200 });
  };
  return { fetch: fetchFn, calls };
}

function signed(body: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const signature = createHmac('sha256', WEBHOOK_SECRET)
    .update(`${timestamp}.${body}`)
    .digest('hex');
  return `t=${timestamp},v1=${signature}`;
}

/** A recorded checkout.session.* event for one of our purchases, with the given session fields. */
function checkoutEvent(
  type: string,
  purchaseId: string,
  session: { id?: string; amount_total?: number; currency?: string },
): string {
  const event = JSON.parse(recorded('event-checkout-session-completed')) as {
    type: string;
    data: { object: Record<string, unknown> };
  };
  event.type = type;
  Object.assign(event.data.object, session, {
    client_reference_id: purchaseId,
    metadata: { purchase_id: purchaseId },
  });
  return JSON.stringify(event);
}

describeEachDatabase('Credit purchases: the same key with another amount', (database) => {
  let stripe: ReturnType<typeof stripeEmulator>;
  let app: FastifyInstance;
  let sandboxApp: FastifyInstance;
  let repositories: Repositories;
  const logLines: string[] = [];

  beforeAll(async () => {
    stripe = stripeEmulator();
    app = await database.buildApp({
      config: {
        stripeSecretKey: 'sk_test_emulated',
        stripeWebhookSecret: WEBHOOK_SECRET,
        logLevel: 'error',
      },
      stripeFetch: stripe.fetch,
      logStream: { write: (line: string) => void logLines.push(line) },
    });
    sandboxApp = await database.buildApp();
    repositories = createRepositories((await database.connection()).db);
  });
  afterAll(async () => {
    await expectLedgerSound(database);
  });

  const addCredits = (target: FastifyInstance, token: string, amount: number, key: string) =>
    target.inject({
      method: 'POST',
      url: apiPaths.payment.addCredits,
      headers: { authorization: `Bearer ${token}`, [IDEMPOTENCY_KEY_HEADER]: key },
      payload: { amount },
    });

  const webhook = (body: string) =>
    app.inject({
      method: 'POST',
      url: apiPaths.payment.stripeWebhook,
      headers: { 'content-type': 'application/json', 'stripe-signature': signed(body) },
      payload: body,
    });

  describe('concurrent requests', () => {
    it('Stripe: the loser is refused with 409 and Checkout always carries the stored amount', async () => {
      for (let attempt = 0; attempt < 8; attempt += 1) {
        const user = await registerUser(app, { role: 'enterprise' });
        const key = `race-${attempt.toString()}`;
        const [first, second] = await Promise.all([
          addCredits(app, user.auth.access_token, 1, key),
          addCredits(app, user.auth.access_token, 1_000_000, key),
        ]);
        const statuses = [first.statusCode, second.statusCode].sort();
        expect(statuses).toEqual([200, 409]);
        const refused = first.statusCode === 409 ? first : second;
        expect(refused.json()).toMatchObject({ code: ERROR_CODES.idempotencyConflict });

        const purchase = await repositories.payments.findPurchaseByKey(user.auth.user_id, key);
        if (!purchase) throw new Error('purchase not recorded');
        const forThisPurchase = stripe.calls.filter((call) => call.purchaseId === purchase.id);
        expect(forThisPurchase.length).toBeGreaterThan(0);
        for (const call of forThisPurchase) {
          expect(call.amountCents * 10_000).toBe(purchase.amountMicros);
        }
      }
    });

    it('sandbox: one purchase for the key, granted once, the other amount refused', async () => {
      for (let attempt = 0; attempt < 8; attempt += 1) {
        const user = await registerUser(sandboxApp, { role: 'enterprise' });
        const key = `sandbox-race-${attempt.toString()}`;
        const answers = await Promise.all([
          addCredits(sandboxApp, user.auth.access_token, 1, key),
          addCredits(sandboxApp, user.auth.access_token, 1_000_000, key),
          addCredits(sandboxApp, user.auth.access_token, 1, key),
        ]);
        const granted = answers.filter((answer) => answer.statusCode === 200);
        const refused = answers.filter((answer) => answer.statusCode === 409);
        expect(granted.length + refused.length).toBe(3);
        const balance = (await balanceOf(sandboxApp, user.auth.access_token)).balance;
        // Whichever amount won, the balance is exactly it, once.
        expect([1, 1_000_000]).toContain(balance);
        if (balance === 1) expect(granted.length).toBe(2);
        else expect(granted.length).toBe(1);
      }
    });
  });

  describe('the webhook grants only what was bought', () => {
    async function pendingPurchase(amount: number) {
      const user = await registerUser(app, { role: 'enterprise' });
      const key = randomUUID();
      const response = await addCredits(app, user.auth.access_token, amount, key);
      expect(response.json()).toMatchObject({ status: 'pending' });
      const purchase = await repositories.payments.findPurchaseByKey(user.auth.user_id, key);
      if (!purchase?.reference) throw new Error('purchase not recorded with its session');
      return { user, purchase: { id: purchase.id, reference: purchase.reference } };
    }

    it('refuses a paid amount other than the purchase amount, and says so in an alert', async () => {
      const { user, purchase } = await pendingPurchase(1);
      const body = checkoutEvent('checkout.session.completed', purchase.id, {
        id: purchase.reference,
        amount_total: 100_000_000,
        currency: 'usd',
      });
      expect((await webhook(body)).statusCode).toBe(200);
      expect((await balanceOf(app, user.auth.access_token)).balance).toBe(0);
      expect(logLines.some((line) => line.includes('"alert":"credit_purchase_mismatch"'))).toBe(
        true,
      );
    });

    it('refuses another currency', async () => {
      const { user, purchase } = await pendingPurchase(25);
      const body = checkoutEvent('checkout.session.completed', purchase.id, {
        id: purchase.reference,
        amount_total: 2500,
        currency: 'eur',
      });
      expect((await webhook(body)).statusCode).toBe(200);
      expect((await balanceOf(app, user.auth.access_token)).balance).toBe(0);
    });

    it('refuses a session other than the one opened for the purchase', async () => {
      const { user, purchase } = await pendingPurchase(25);
      const body = checkoutEvent('checkout.session.completed', purchase.id, {
        id: 'cs_test_some_other_session',
        amount_total: 2500,
        currency: 'usd',
      });
      expect((await webhook(body)).statusCode).toBe(200);
      expect((await balanceOf(app, user.auth.access_token)).balance).toBe(0);
    });

    it('never grants an expired (failed) purchase, even when a paid event follows', async () => {
      const { user, purchase } = await pendingPurchase(25);
      const session = { id: purchase.reference, amount_total: 2500, currency: 'usd' };
      await webhook(checkoutEvent('checkout.session.expired', purchase.id, session));
      await webhook(checkoutEvent('checkout.session.completed', purchase.id, session));
      expect((await balanceOf(app, user.auth.access_token)).balance).toBe(0);
    });

    it('grants the matching amount once', async () => {
      const { user, purchase } = await pendingPurchase(25);
      const body = checkoutEvent('checkout.session.completed', purchase.id, {
        id: purchase.reference,
        amount_total: 2500,
        currency: 'usd',
      });
      await webhook(body);
      await webhook(body);
      expect((await balanceOf(app, user.auth.access_token)).balance).toBe(25);
    });
  });
});
