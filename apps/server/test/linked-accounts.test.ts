import { createHmac, randomUUID } from 'node:crypto';
import { apiPaths, notificationListResponseSchema } from '@fabric/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { registerUser, bearer } from './support/auth.ts';
import { createManualClock } from './support/clock.ts';
import {
  enrollNode,
  lease,
  leaseJob,
  PRIME_SIEVE_1E11_RESULT,
  submitJob,
} from './support/compute-network.ts';
import { describeEachDatabase } from './support/databases.ts';
import {
  addCreditsRequest,
  balanceOf,
  completeWithCpu,
  expectLedgerSound,
} from './support/money.ts';
import { paidSessionAnswer, recordedStripe, requestUrl } from './support/stripe-recorded.ts';

// "A provider's nodes never run jobs of an enterprise account linked to the same person where the
// payment provider can tell (the same card or bank fingerprint on both sides), and earnings from
// such pairs are held." With Stripe configured (an emulator built from recorded answers): the
// card that paid an enterprise's credits is read from the paid Checkout Session, the instruments
// a provider is paid out to from its connected account; a shared fingerprint links the two.

const WEBHOOK_SECRET = 'whsec_test_webhook_secret_for_fabric';
const JOB = { job_type: 'prime_sieve' as const, params: { limit: PRIME_SIEVE_1E11_RESULT.limit } };

/** Stripe as far as these flows go: accounts, account links, Checkout Sessions and their payment. */
function stripeEmulator() {
  /** The card each session was paid with, and the instrument each connected account is paid to. */
  const cardOfSession = new Map<string, string>();
  const payoutInstrumentOf = new Map<string, string>();
  /** The card the next Checkout will be paid with. */
  let nextCard = 'card_of_a_stranger';
  let lastCheckout = { sessionId: '', purchaseId: '', amountCents: 0 };
  let lastAccountId = '';
  const fetchFn: typeof fetch = (input, init) => {
    const url = requestUrl(input);
    const method = init?.method ?? 'GET';
    const form = new URLSearchParams(typeof init?.body === 'string' ? init.body : '');
    const session = /\/v1\/checkout\/sessions\/([^/?]+)\?/.exec(url)?.[1];
    if (session)
      return Promise.resolve(paidSessionAnswer(url, cardOfSession.get(session)) as Response);
    const json = (name: string, patch: Record<string, unknown>) =>
      Promise.resolve(
        new Response(JSON.stringify({ ...JSON.parse(recordedStripe(name)), ...patch }), {
          status: 200,
        }),
      );
    if (method === 'POST' && url.endsWith('/v1/accounts')) {
      lastAccountId = `acct_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
      return json('account-new', { id: lastAccountId });
    }
    if (method === 'POST' && url.endsWith('/v1/account_links')) return json('account-link', {});
    const account = /\/v1\/accounts\/([^/?]+)$/.exec(url)?.[1];
    if (method === 'GET' && account) {
      const fingerprint = payoutInstrumentOf.get(account) ?? 'bank_of_a_stranger';
      return json('account-complete', {
        id: account,
        // A debit card as the payout instrument (Stripe pays out to debit cards too).
        external_accounts: { object: 'list', data: [{ object: 'card', fingerprint }] },
      });
    }
    if (method === 'POST' && url.endsWith('/v1/checkout/sessions')) {
      const id = `cs_test_${randomUUID().replaceAll('-', '')}`;
      cardOfSession.set(id, nextCard);
      const purchaseId = form.get('client_reference_id') ?? '';
      const amountCents = Number(form.get('line_items[0][price_data][unit_amount]'));
      lastCheckout = { sessionId: id, purchaseId, amountCents };
      return json('checkout-session', {
        id,
        amount_total: amountCents,
        client_reference_id: purchaseId,
        metadata: { purchase_id: purchaseId },
      });
    }
    return Promise.reject(new Error(`unexpected ${method} ${url}`));
  };
  return {
    fetch: fetchFn,
    payNextCheckoutWith(card: string) {
      nextCard = card;
    },
    payOutTo(accountId: string, instrument: string) {
      payoutInstrumentOf.set(accountId, instrument);
    },
    lastCheckout: () => lastCheckout,
    lastAccountId: () => lastAccountId,
  };
}

describeEachDatabase('linked accounts: one person on both sides of the market', (database) => {
  const clock = createManualClock(new Date('2026-11-20T12:00:00.000Z'));
  const stripe = stripeEmulator();
  let app: FastifyInstance;
  const logLines: string[] = [];

  beforeAll(async () => {
    app = await database.buildApp({
      clock: clock.now,
      config: {
        stripeSecretKey: 'sk_test_emulated',
        stripeWebhookSecret: WEBHOOK_SECRET,
        accessTokenTtlSeconds: 400 * 86_400,
        logLevel: 'error',
      },
      stripeFetch: stripe.fetch,
      logStream: { write: (line: string) => void logLines.push(line) },
    });
  });
  afterAll(async () => {
    await expectLedgerSound(database);
  });

  /** Stripe's checkout.session.completed for `sessionId`, signed as Stripe signs it. */
  async function deliverPaidCheckout(sessionId: string, purchaseId: string, amountCents: number) {
    const event = JSON.parse(recordedStripe('event-checkout-session-completed')) as {
      data: { object: Record<string, unknown> };
    };
    Object.assign(event.data.object, {
      id: sessionId,
      amount_total: amountCents,
      currency: 'usd',
      payment_status: 'paid',
      client_reference_id: purchaseId,
      metadata: { purchase_id: purchaseId },
    });
    const body = JSON.stringify(event);
    const timestamp = Math.floor(clock.now().getTime() / 1000);
    const signature = createHmac('sha256', WEBHOOK_SECRET)
      .update(`${timestamp}.${body}`)
      .digest('hex');
    const response = await app.inject({
      method: 'POST',
      url: apiPaths.payment.stripeWebhook,
      headers: {
        'content-type': 'application/json',
        'stripe-signature': `t=${timestamp},v1=${signature}`,
      },
      payload: body,
    });
    expect(response.json()).toEqual({ received: true });
  }

  /** An enterprise whose $100 of credits were paid with `card`. */
  async function enterprisePayingWith(card: string): Promise<string> {
    const token = (await registerUser(app, { role: 'enterprise' })).auth.access_token;
    stripe.payNextCheckoutWith(card);
    const started = await addCreditsRequest(app, token, 100);
    expect(started.json()).toMatchObject({ status: 'pending' });
    const { sessionId, purchaseId, amountCents } = stripe.lastCheckout();
    await deliverPaidCheckout(sessionId, purchaseId, amountCents);
    expect((await balanceOf(app, token)).balance).toBe(100);
    return token;
  }

  /** A provider whose connected account is paid out to `instrument`. */
  async function providerPaidTo(instrument: string): Promise<string> {
    const token = (await registerUser(app, { role: 'node_provider' })).auth.access_token;
    await connectPayoutsTo(token, instrument);
    return token;
  }

  /**
   * The provider onboards a connected account paid out to `instrument`; Settings then asks for its
   * status, which is when the server reads the account's payout instruments.
   */
  async function connectPayoutsTo(token: string, instrument: string): Promise<void> {
    const onboard = await app.inject({
      url: apiPaths.payment.connectOnboard,
      headers: bearer(token),
    });
    expect(onboard.statusCode, onboard.body).toBe(200);
    stripe.payOutTo(stripe.lastAccountId(), instrument);
    const status = await app.inject({
      url: apiPaths.payment.connectStatus,
      headers: bearer(token),
    });
    expect(status.json()).toMatchObject({ connected: true, payouts_enabled: true });
  }

  it('never leases a linked enterprise’s jobs to the provider’s nodes, and says so in an alert', async () => {
    const sharedCard = `card_${randomUUID()}`;
    const provider = await providerPaidTo(sharedCard);
    const linked = await enterprisePayingWith(sharedCard);
    expect(logLines.join('\n')).toContain('"alert":"linked_accounts"');
    const stranger = await enterprisePayingWith(`card_${randomUUID()}`);

    const own = await submitJob(app, linked, JOB);
    const foreign = await submitJob(app, stranger, JOB);
    const node = await enrollNode(app, provider);
    // The older job is the linked enterprise's: the provider's node is handed the stranger's.
    const leased = await leaseJob(app, node.deviceToken);
    expect(leased.job_id).toBe(foreign.id);
    clock.advanceBy(30_000);
    await completeWithCpu(app, node.deviceToken, leased, PRIME_SIEVE_1E11_RESULT, 1000);
    expect(await lease(app, node.deviceToken)).toBeNull();

    // Another provider's node runs it.
    const other = await enrollNode(app, await providerPaidTo(`bank_${randomUUID()}`));
    const taken = await leaseJob(app, other.deviceToken);
    expect(taken.job_id).toBe(own.id);
    clock.advanceBy(30_000);
    await completeWithCpu(app, other.deviceToken, taken, PRIME_SIEVE_1E11_RESULT, 1000);
  });

  it('holds at settlement what a provider earned from a linked enterprise before the link was known', async () => {
    const card = `card_${randomUUID()}`;
    const linked = await enterprisePayingWith(card);
    const stranger = await enterprisePayingWith(`card_${randomUUID()}`);
    const provider = (await registerUser(app, { role: 'node_provider' })).auth.access_token;
    const node = await enrollNode(app, provider);
    for (const enterprise of [stranger, linked]) {
      const job = await submitJob(app, enterprise, JOB);
      const leased = await leaseJob(app, node.deviceToken);
      expect(leased.job_id).toBe(job.id);
      clock.advanceBy(30_000);
      await completeWithCpu(app, node.deviceToken, leased, PRIME_SIEVE_1E11_RESULT, 1000);
    }
    // $0.17 a job, $0.136 of it the provider's: $0.27 pending.
    expect((await balanceOf(app, provider)).pending_earnings).toBe(0.27);

    // Then the provider connects the card that paid the enterprise's credits for its payouts.
    await connectPayoutsTo(provider, card);

    const now = clock.now();
    clock.advanceBy(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 2) - now.getTime());
    await app.payments.settle();
    await app.payments.settle();
    // The stranger's job is settled; the linked enterprise's stays pending, held.
    expect(await balanceOf(app, provider)).toMatchObject({ balance: 0.14, pending_earnings: 0.14 });
    const notifications = await app.inject({
      url: apiPaths.notifications.list,
      headers: bearer(provider),
    });
    const titles = notificationListResponseSchema
      .parse(notifications.json())
      .notifications.map((notification) => notification.title);
    expect(titles).toContain('$0.14 of earnings held for review');
    expect(titles).toContain('$0.14 of earnings ready for payout');
  });
});
