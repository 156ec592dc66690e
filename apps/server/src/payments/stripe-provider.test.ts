import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PaymentProviderError, WebhookSignatureError } from './payment-provider.ts';
import { STRIPE_API_VERSION, createStripeProvider } from './stripe-provider.ts';

// Recorded Stripe API answers (test mode), as the API returns them.
function fixture(name: string): string {
  return readFileSync(new URL(`./fixtures/stripe/${name}.json`, import.meta.url), 'utf8');
}

const SECRET_KEY = 'sk_test_51SZ9xE2eZvKYlo2CfabricTestKey';
const WEBHOOK_SECRET = 'whsec_7f3c1e9b2a4d6f8e0c1b3a5d7f9e2c4b';
const ACCOUNT_ID = 'acct_1SZkqT4GcbYrPw8L';
const USER_ID = 'usr_01JDQ8Z3W6N5R4XK2VYHT7MBCE';
const PURCHASE_ID = 'cp_01JDQ9A4M2H7V3XKQ5T8NB6RWD';
const PAYOUT_ID = 'po_01JDQB7K9T2M4V6XR8N3HZC5QW';
const SESSION_ID = 'cs_test_a1Kq8vGt3ZcRmPd2Xw9LhN4bYf6sJu0TeQ7oVi5kAr';
const UNREACHABLE = 'The payment provider could not be reached; try again.';
const UNEXPECTED = 'The payment provider gave an unexpected answer; try again.';
const REFUSED = 'The payment provider could not process the request; try again later.';

interface RecordedCall {
  url: string;
  method: string;
  headers: Headers;
  rawBody: string | null;
  form: Record<string, string>;
}

type Answer = { status: number; body: string } | Error;

/** A fetch that answers from a queue of recorded responses and records what it was sent. */
function fakeStripe(...answers: Answer[]) {
  const calls: RecordedCall[] = [];
  const fetchFn: typeof fetch = (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const rawBody = typeof init?.body === 'string' ? init.body : null;
    calls.push({
      url,
      method: init?.method ?? 'GET',
      headers: new Headers(init?.headers),
      rawBody,
      form: rawBody === null ? {} : Object.fromEntries(new URLSearchParams(rawBody)),
    });
    const answer = answers.shift();
    if (answer === undefined) return Promise.reject(new Error(`unexpected request to ${url}`));
    if (answer instanceof Error) return Promise.reject(answer);
    return Promise.resolve(
      new Response(answer.body, {
        status: answer.status,
        headers: { 'Content-Type': 'application/json', 'Request-Id': 'req_test' },
      }),
    );
  };
  const provider = createStripeProvider({
    secretKey: SECRET_KEY,
    webhookSecret: WEBHOOK_SECRET,
    fetch: fetchFn,
  });
  return { provider, calls };
}

const ok = (name: string): Answer => ({ status: 200, body: fixture(name) });

function expectAuthAndVersion(call: RecordedCall | undefined) {
  expect(call?.headers.get('authorization')).toBe(`Bearer ${SECRET_KEY}`);
  expect(call?.headers.get('stripe-version')).toBe(STRIPE_API_VERSION);
}

function expectFormPost(call: RecordedCall | undefined, path: string) {
  expect(call?.method).toBe('POST');
  expect(call?.url).toBe(`https://api.stripe.com${path}`);
  expectAuthAndVersion(call);
  expect(call?.headers.get('content-type')).toBe('application/x-www-form-urlencoded');
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

/** The userMessage of the PaymentProviderError the promise rejects with. */
async function providerErrorMessage(promise: Promise<unknown>): Promise<string> {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(PaymentProviderError);
  return (error as PaymentProviderError).userMessage;
}

const onboarding = {
  userId: USER_ID,
  email: 'ada@example.com',
  existingAccountId: null,
  returnUrl: 'https://fabric.example/settings?stripe_connected=true',
  refreshUrl: 'https://fabric.example/settings',
};

describe('stripe provider: onboarding', () => {
  it('creates an Express account, then an onboarding link for it', async () => {
    const { provider, calls } = fakeStripe(ok('account-new'), ok('account-link'));

    const result = await provider.createOnboardingLink(onboarding);

    expect(result).toEqual({
      accountId: ACCOUNT_ID,
      url: `https://connect.stripe.com/setup/e/${ACCOUNT_ID}/Qn2YtRk8HhZw`,
    });
    expect(calls).toHaveLength(2);

    const [createAccount, createLink] = calls;
    expectFormPost(createAccount, '/v1/accounts');
    expect(createAccount?.headers.get('idempotency-key')).toBe(
      `fabric-connected-account-${USER_ID}`,
    );
    expect(createAccount?.form).toEqual({
      type: 'express',
      email: 'ada@example.com',
      'capabilities[transfers][requested]': 'true',
      'metadata[user_id]': USER_ID,
    });
    // Stripe's nested keys travel with literal brackets.
    expect(createAccount?.rawBody).toContain('capabilities[transfers][requested]=true');
    expect(createAccount?.rawBody).toContain(`metadata[user_id]=${USER_ID}`);

    expectFormPost(createLink, '/v1/account_links');
    expect(createLink?.headers.get('idempotency-key')).toMatch(
      new RegExp(`^fabric-account-link-${ACCOUNT_ID}-[0-9a-f-]{36}$`),
    );
    expect(createLink?.form).toEqual({
      account: ACCOUNT_ID,
      refresh_url: 'https://fabric.example/settings',
      return_url: 'https://fabric.example/settings?stripe_connected=true',
      type: 'account_onboarding',
    });
  });

  it('continues an existing account with a new link only', async () => {
    const { provider, calls } = fakeStripe(ok('account-link'), ok('account-link'));

    const first = await provider.createOnboardingLink({
      ...onboarding,
      existingAccountId: ACCOUNT_ID,
    });
    await provider.createOnboardingLink({ ...onboarding, existingAccountId: ACCOUNT_ID });

    expect(first.accountId).toBe(ACCOUNT_ID);
    expect(calls.map((call) => call.url)).toEqual([
      'https://api.stripe.com/v1/account_links',
      'https://api.stripe.com/v1/account_links',
    ]);
    // Links are single-use: asking again must not replay the first (possibly used) link.
    expect(calls[0]?.headers.get('idempotency-key')).not.toBe(
      calls[1]?.headers.get('idempotency-key'),
    );
  });

  it('keeps the account-creation key stable, so a retry returns the same account', async () => {
    const { provider, calls } = fakeStripe(
      { status: 500, body: '{"error":{"type":"api_error","message":"An unknown error occurred"}}' },
      ok('account-new'),
      ok('account-link'),
    );

    expect(await providerErrorMessage(provider.createOnboardingLink(onboarding))).toBe(UNREACHABLE);
    await provider.createOnboardingLink(onboarding);

    expect(calls[0]?.headers.get('idempotency-key')).toBe(`fabric-connected-account-${USER_ID}`);
    expect(calls[1]?.headers.get('idempotency-key')).toBe(`fabric-connected-account-${USER_ID}`);
  });

  it('uses the configured API base', async () => {
    const calls: string[] = [];
    const provider = createStripeProvider({
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
      apiBase: 'http://localhost:12111/',
      fetch: (input) => {
        calls.push(typeof input === 'string' ? input : 'not a string');
        return Promise.resolve(new Response(fixture('account-complete'), { status: 200 }));
      },
    });
    await provider.getAccountStatus(ACCOUNT_ID);
    expect(calls).toEqual([`http://localhost:12111/v1/accounts/${ACCOUNT_ID}`]);
  });
});

describe('stripe provider: account status', () => {
  it.each([
    [
      'account-new',
      {
        connected: true,
        payoutsEnabled: false,
        currentlyDue: [
          'business_profile.mcc',
          'business_profile.url',
          'business_type',
          'external_account',
          'tos_acceptance.date',
          'tos_acceptance.ip',
        ],
        payoutFingerprints: [],
      },
    ],
    [
      'account-incomplete',
      {
        connected: true,
        payoutsEnabled: false,
        currentlyDue: [
          'external_account',
          'individual.ssn_last_4',
          'individual.verification.document',
        ],
        payoutFingerprints: [],
      },
    ],
    [
      'account-complete',
      {
        connected: true,
        payoutsEnabled: true,
        currentlyDue: [],
        // The bank account payouts go to, by Stripe's fingerprint.
        payoutFingerprints: ['1JWtPxqbdX5Gamtz'],
      },
    ],
  ])('maps %s', async (name, status) => {
    const { provider, calls } = fakeStripe(ok(name));

    expect(await provider.getAccountStatus(ACCOUNT_ID)).toEqual(status);

    expect(calls).toHaveLength(1);
    expect(calls[0]?.method).toBe('GET');
    expect(calls[0]?.url).toBe(`https://api.stripe.com/v1/accounts/${ACCOUNT_ID}`);
    expectAuthAndVersion(calls[0]);
    expect(calls[0]?.headers.get('idempotency-key')).toBeNull();
    expect(calls[0]?.rawBody).toBeNull();
  });

  it('reads absent requirements as nothing due', async () => {
    const account = JSON.parse(fixture('account-complete')) as Record<string, unknown>;
    delete account.requirements;
    const { provider } = fakeStripe({ status: 200, body: JSON.stringify(account) });

    expect(await provider.getAccountStatus(ACCOUNT_ID)).toEqual({
      connected: true,
      payoutsEnabled: true,
      currentlyDue: [],
      payoutFingerprints: ['1JWtPxqbdX5Gamtz'],
    });
  });
});

describe('stripe provider: fingerprints of the instrument that paid', () => {
  it('reads the card of a paid Checkout Session from its expanded payment method', async () => {
    const { provider, calls } = fakeStripe(ok('checkout-session-paid-expanded'));

    expect(await provider.purchaseFingerprints(SESSION_ID)).toEqual(['Xt5EWLLDS7FJjR1c']);

    expect(calls).toHaveLength(1);
    expect(calls[0]?.method).toBe('GET');
    expect(calls[0]?.url).toBe(
      `https://api.stripe.com/v1/checkout/sessions/${SESSION_ID}?expand[]=payment_intent.payment_method`,
    );
    expectAuthAndVersion(calls[0]);
  });

  it('reads a bank debit the same way, whatever its type', async () => {
    const session = JSON.parse(fixture('checkout-session-paid-expanded')) as {
      payment_intent: { payment_method: Record<string, unknown> };
    };
    session.payment_intent.payment_method = {
      id: 'pm_1SZmF34GcbYrPw8LsE2kD0bC',
      object: 'payment_method',
      type: 'us_bank_account',
      us_bank_account: {
        bank_name: 'STRIPE TEST BANK',
        fingerprint: '1JWtPxqbdX5Gamtz',
        last4: '6789',
      },
    };
    const { provider } = fakeStripe({ status: 200, body: JSON.stringify(session) });
    expect(await provider.purchaseFingerprints(SESSION_ID)).toEqual(['1JWtPxqbdX5Gamtz']);
  });

  it('finds none in a session not paid yet, or whose payment method was not expanded', async () => {
    const { provider } = fakeStripe(ok('checkout-session'));
    expect(await provider.purchaseFingerprints(SESSION_ID)).toEqual([]);
    const session = JSON.parse(fixture('checkout-session-paid-expanded')) as {
      payment_intent: { payment_method: unknown };
    };
    session.payment_intent.payment_method = 'pm_1SZmE14GcbYrPw8LkV3yQ9dA';
    const unexpanded = fakeStripe({ status: 200, body: JSON.stringify(session) });
    expect(await unexpanded.provider.purchaseFingerprints(SESSION_ID)).toEqual([]);
  });

  it('fails as unreachable when Stripe cannot be asked, so the webhook is delivered again', async () => {
    const { provider } = fakeStripe({ status: 503, body: '{}' });
    const error = await rejection(provider.purchaseFingerprints(SESSION_ID));
    expect(error).toBeInstanceOf(PaymentProviderError);
    expect((error as PaymentProviderError).isOutcomeUnknown).toBe(true);
  });
});

describe('stripe provider: credit purchase', () => {
  const purchase = {
    purchaseId: PURCHASE_ID,
    userId: USER_ID,
    email: 'ada@example.com',
    amountCents: 2500,
    successUrl: 'https://fabric.example/credits?purchase=done',
    cancelUrl: 'https://fabric.example/credits?purchase=cancelled',
  };

  it('creates a Checkout Session and hands back its URL', async () => {
    const { provider, calls } = fakeStripe(ok('checkout-session'));

    const result = await provider.startCreditPurchase(purchase);

    expect(result).toEqual({
      status: 'pending',
      reference: SESSION_ID,
      checkoutUrl: expect.stringMatching(
        new RegExp(`^https://checkout\\.stripe\\.com/c/pay/${SESSION_ID}#`),
      ) as unknown,
    });
    expect(calls).toHaveLength(1);
    expectFormPost(calls[0], '/v1/checkout/sessions');
    expect(calls[0]?.headers.get('idempotency-key')).toBe(`fabric-credit-purchase-${PURCHASE_ID}`);
    expect(calls[0]?.form).toEqual({
      mode: 'payment',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': '2500',
      'line_items[0][price_data][product_data][name]': 'Fabric compute credits',
      'line_items[0][quantity]': '1',
      success_url: 'https://fabric.example/credits?purchase=done',
      cancel_url: 'https://fabric.example/credits?purchase=cancelled',
      client_reference_id: PURCHASE_ID,
      'metadata[purchase_id]': PURCHASE_ID,
      'metadata[user_id]': USER_ID,
      customer_email: 'ada@example.com',
    });
  });

  it("passes Stripe's message on for a request error", async () => {
    const { provider } = fakeStripe({ status: 400, body: fixture('error-invalid-request') });

    expect(await providerErrorMessage(provider.startCreditPurchase(purchase))).toBe(
      'Invalid email address: ada@example',
    );
  });

  it('does not show an authentication error (it names our key) to the user', async () => {
    const { provider } = fakeStripe({ status: 401, body: fixture('error-authentication') });

    expect(await providerErrorMessage(provider.startCreditPurchase(purchase))).toBe(REFUSED);
  });

  it('treats a session without a URL as an unexpected answer', async () => {
    const session = JSON.parse(fixture('checkout-session')) as Record<string, unknown>;
    session.url = null;
    const { provider } = fakeStripe({ status: 200, body: JSON.stringify(session) });

    expect(await providerErrorMessage(provider.startCreditPurchase(purchase))).toBe(UNEXPECTED);
  });
});

describe('stripe provider: payouts', () => {
  const payout = {
    payoutId: PAYOUT_ID,
    accountId: ACCOUNT_ID,
    amountCents: 1842,
    idempotencyKey: `payout-${PAYOUT_ID}`,
  };

  it('sends a transfer to the connected account', async () => {
    const { provider, calls } = fakeStripe(ok('transfer'));

    expect(await provider.sendPayout(payout)).toEqual({
      status: 'paid',
      reference: 'tr_1SZmQ82eZvKYlo2C0b9sNq3K',
    });
    expect(calls).toHaveLength(1);
    expectFormPost(calls[0], '/v1/transfers');
    expect(calls[0]?.headers.get('idempotency-key')).toBe(`payout-${PAYOUT_ID}`);
    expect(calls[0]?.form).toEqual({
      amount: '1842',
      currency: 'usd',
      destination: ACCOUNT_ID,
      transfer_group: PAYOUT_ID,
      'metadata[payout_id]': PAYOUT_ID,
    });
  });

  it('reports a balance too low for the transfer as a failed payout', async () => {
    const { provider } = fakeStripe({ status: 400, body: fixture('error-balance-insufficient') });

    expect(await provider.sendPayout(payout)).toEqual({
      status: 'failed',
      reference: null,
      failureReason:
        'The platform balance is too low to send this payout now; it can be sent again later.',
    });
  });

  it("throws Stripe's message for other request errors", async () => {
    const { provider } = fakeStripe({ status: 400, body: fixture('error-no-such-destination') });

    expect(await providerErrorMessage(provider.sendPayout(payout))).toBe(
      "No such destination: 'acct_1NoSuchAcct000000'",
    );
  });

  it('does not show an idempotency conflict to the user', async () => {
    const { provider } = fakeStripe({ status: 400, body: fixture('error-idempotency') });

    expect(await providerErrorMessage(provider.sendPayout(payout))).toBe(REFUSED);
  });

  it.each<[string, Answer, string]>([
    ['a network failure', new TypeError('fetch failed'), UNREACHABLE],
    [
      'a 500',
      { status: 500, body: '{"error":{"type":"api_error","message":"Something went wrong"}}' },
      UNREACHABLE,
    ],
    ['a 502 from a proxy', { status: 502, body: '<html>Bad Gateway</html>' }, UNREACHABLE],
    [
      'a 429',
      {
        status: 429,
        body: '{"error":{"type":"invalid_request_error","code":"rate_limit","message":"Too many requests"}}',
      },
      UNREACHABLE,
    ],
    ['a 200 that is not JSON', { status: 200, body: 'OK' }, UNEXPECTED],
    ['a 200 without an id', { status: 200, body: '{"object":"transfer"}' }, UNEXPECTED],
    ['a 400 that is not JSON', { status: 400, body: 'Bad Request' }, UNEXPECTED],
  ])('turns %s into a PaymentProviderError', async (_what, answer, message) => {
    const { provider } = fakeStripe(answer);

    expect(await providerErrorMessage(provider.sendPayout(payout))).toBe(message);
  });
});

// ---- Webhooks ----

const NOW = new Date('2026-11-22T12:00:00Z');
const NOW_SECONDS = Math.floor(NOW.getTime() / 1000);

/** Signs a body the way Stripe does: HMAC-SHA256 of `${t}.${body}`, hex, in `t=…,v1=…`. */
function signature(body: string, secret = WEBHOOK_SECRET, timestamp = NOW_SECONDS): string {
  return createHmac('sha256', secret)
    .update(`${String(timestamp)}.${body}`)
    .digest('hex');
}

function header(body: string, secret = WEBHOOK_SECRET, timestamp = NOW_SECONDS): string {
  return `t=${String(timestamp)},v1=${signature(body, secret, timestamp)}`;
}

describe('stripe provider: webhook events', () => {
  const { provider } = fakeStripe();

  it.each([
    [
      'event-checkout-session-completed',
      {
        type: 'credit_purchase_completed',
        purchaseId: PURCHASE_ID,
        reference: SESSION_ID,
        amountCents: 2500,
        currency: 'usd',
      },
    ],
    [
      'event-checkout-session-completed-unpaid',
      { type: 'ignored', providerType: 'checkout.session.completed' },
    ],
    [
      'event-checkout-session-async-payment-succeeded',
      {
        type: 'credit_purchase_completed',
        purchaseId: PURCHASE_ID,
        reference: SESSION_ID,
        amountCents: 2500,
        currency: 'usd',
      },
    ],
    [
      'event-checkout-session-async-payment-failed',
      { type: 'credit_purchase_failed', purchaseId: PURCHASE_ID, reference: SESSION_ID },
    ],
    [
      'event-checkout-session-expired',
      { type: 'credit_purchase_failed', purchaseId: PURCHASE_ID, reference: SESSION_ID },
    ],
    [
      'event-account-updated',
      {
        type: 'account_updated',
        accountId: ACCOUNT_ID,
        status: {
          connected: true,
          payoutsEnabled: false,
          currentlyDue: [
            'external_account',
            'individual.ssn_last_4',
            'individual.verification.document',
          ],
          payoutFingerprints: [],
        },
      },
    ],
    [
      'event-account-updated-complete',
      {
        type: 'account_updated',
        accountId: ACCOUNT_ID,
        status: {
          connected: true,
          payoutsEnabled: true,
          currentlyDue: [],
          payoutFingerprints: ['1JWtPxqbdX5Gamtz'],
        },
      },
    ],
    [
      'event-transfer-reversed',
      {
        type: 'payout_failed',
        payoutId: PAYOUT_ID,
        reference: 'tr_1SZmQ82eZvKYlo2C0b9sNq3K',
        failureReason: 'The transfer was reversed',
      },
    ],
    [
      'event-payment-intent-succeeded',
      { type: 'ignored', providerType: 'payment_intent.succeeded' },
    ],
  ])('maps %s', (name, expected) => {
    const body = fixture(name);
    expect(provider.parseWebhook(body, header(body), NOW)).toEqual(expected);
  });

  it('falls back to client_reference_id when the metadata lacks purchase_id', () => {
    const event = JSON.parse(fixture('event-checkout-session-completed')) as {
      data: { object: { metadata: Record<string, string> } };
    };
    event.data.object.metadata = {};
    const body = JSON.stringify(event);

    expect(provider.parseWebhook(body, header(body), NOW)).toMatchObject({
      type: 'credit_purchase_completed',
      purchaseId: PURCHASE_ID,
    });
  });

  it('ignores a checkout session that carries none of our ids', () => {
    const event = JSON.parse(fixture('event-checkout-session-completed')) as {
      data: { object: { metadata: Record<string, string>; client_reference_id: string | null } };
    };
    event.data.object.metadata = {};
    event.data.object.client_reference_id = null;
    const body = JSON.stringify(event);

    expect(provider.parseWebhook(body, header(body), NOW)).toEqual({
      type: 'ignored',
      providerType: 'checkout.session.completed',
    });
  });

  it('ignores a partial transfer reversal (the payout was still made in part)', () => {
    const event = JSON.parse(fixture('event-transfer-reversed')) as {
      data: { object: { amount_reversed: number; reversed: boolean } };
    };
    event.data.object.amount_reversed = 500;
    event.data.object.reversed = false;
    const body = JSON.stringify(event);

    expect(provider.parseWebhook(body, header(body), NOW)).toEqual({
      type: 'ignored',
      providerType: 'transfer.reversed',
    });
  });

  it('throws a plain Error (not a signature error) for a signed body that is not JSON', () => {
    const body = '{"id":"evt_1","type":"checkout.session.completed",';
    let error: unknown;
    try {
      provider.parseWebhook(body, header(body), NOW);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(WebhookSignatureError);
    expect((error as Error).message).toBe('The Stripe webhook body is not JSON.');
  });

  it('throws a plain Error for signed JSON that is not a Stripe event', () => {
    const body = '{"hello":"world"}';
    expect(() => provider.parseWebhook(body, header(body), NOW)).toThrow(
      'The Stripe webhook body is not a Stripe event.',
    );
  });
});

describe('stripe provider: webhook signatures', () => {
  const { provider } = fakeStripe();
  const body = fixture('event-checkout-session-completed');

  function expectRejected(signatureHeader: string | undefined, rawBody = body, now = NOW) {
    expect(() => provider.parseWebhook(rawBody, signatureHeader, now)).toThrow(
      WebhookSignatureError,
    );
  }

  it('accepts a valid signature, also with the v0 test-mode signature beside it', () => {
    expect(provider.parseWebhook(body, header(body), NOW).type).toBe('credit_purchase_completed');
    const withV0 = `${header(body)},v0=${signature(body, 'whsec_some_other_secret')}`;
    expect(provider.parseWebhook(body, withV0, NOW).type).toBe('credit_purchase_completed');
  });

  it('rejects a signature made with another secret', () => {
    expectRejected(header(body, 'whsec_not_our_secret'));
  });

  it('rejects a tampered body', () => {
    const tampered = body.replace('"amount_total": 2500', '"amount_total": 250000');
    expect(tampered).not.toBe(body);
    expectRejected(header(body), tampered);
  });

  it('rejects a signature over another timestamp', () => {
    const sig = signature(body, WEBHOOK_SECRET, NOW_SECONDS - 10);
    expectRejected(`t=${String(NOW_SECONDS)},v1=${sig}`);
  });

  it('rejects a timestamp more than five minutes away, either way', () => {
    expectRejected(header(body, WEBHOOK_SECRET, NOW_SECONDS - 301));
    expectRejected(header(body, WEBHOOK_SECRET, NOW_SECONDS + 301));
    expect(
      provider.parseWebhook(body, header(body, WEBHOOK_SECRET, NOW_SECONDS - 300), NOW).type,
    ).toBe('credit_purchase_completed');
  });

  it('accepts when one of several v1 signatures is right (a secret being rolled)', () => {
    const wrong = signature(body, 'whsec_the_old_secret');
    const right = signature(body);
    expect(
      provider.parseWebhook(body, `t=${String(NOW_SECONDS)},v1=${wrong},v1=${right}`, NOW).type,
    ).toBe('credit_purchase_completed');
    expectRejected(`t=${String(NOW_SECONDS)},v1=${wrong},v1=${wrong.slice(0, 32)}`);
  });

  it('rejects a missing or malformed header', () => {
    expectRejected(undefined);
    expectRejected('');
    expectRejected(`v1=${signature(body)}`);
    expectRejected(`t=${String(NOW_SECONDS)}`);
    expectRejected(`t=${String(NOW_SECONDS)},v0=${signature(body)}`);
    expectRejected(`t=soon,v1=${signature(body)}`);
    expectRejected('garbage');
  });

  it('accepts any of several comma-separated endpoint secrets', () => {
    const twoSecrets = createStripeProvider({
      secretKey: SECRET_KEY,
      webhookSecret: `whsec_platform_endpoint, ${WEBHOOK_SECRET}`,
      fetch: () => Promise.reject(new Error('no requests here')),
    });
    expect(twoSecrets.parseWebhook(body, header(body), NOW).type).toBe('credit_purchase_completed');
    expect(twoSecrets.parseWebhook(body, header(body, 'whsec_platform_endpoint'), NOW).type).toBe(
      'credit_purchase_completed',
    );
    expect(() => twoSecrets.parseWebhook(body, header(body, 'whsec_other'), NOW)).toThrow(
      WebhookSignatureError,
    );
  });
});
