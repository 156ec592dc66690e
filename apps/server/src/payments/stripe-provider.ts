// The Stripe implementation of PaymentProvider, over plain fetch (no SDK): Connect Express accounts
// and Account Links for onboarding, Checkout Sessions for credit purchases, Transfers for payouts
// to connected accounts, and signed webhooks. Every POST carries an Idempotency-Key derived from
// our own ids, so a retried call never creates a second account, session or transfer.

import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import {
  PaymentProviderError,
  WebhookSignatureError,
  type ConnectedAccountStatus,
  type CreditPurchaseRequest,
  type CreditPurchaseStart,
  type OnboardingRequest,
  type PaymentEvent,
  type PaymentProvider,
  type PayoutRequest,
  type PayoutStart,
} from './payment-provider.ts';

/** Every request is pinned to this API version, whatever the account's default is. */
export const STRIPE_API_VERSION = '2026-08-26.dahlia';
/** How far (either way) a webhook's signed timestamp may be from our clock: Stripe's default. */
export const STRIPE_WEBHOOK_TOLERANCE_SECONDS = 300;
/** A Stripe call that takes longer than this counts as unreachable. */
export const STRIPE_REQUEST_TIMEOUT_MS = 20_000;

const DEFAULT_API_BASE = 'https://api.stripe.com';
const UNREACHABLE_MESSAGE = 'The payment provider could not be reached; try again.';
const UNEXPECTED_ANSWER_MESSAGE = 'The payment provider gave an unexpected answer; try again.';
const REFUSED_MESSAGE = 'The payment provider could not process the request; try again later.';
/** Stripe error codes meaning the platform balance cannot cover a transfer. */
const INSUFFICIENT_FUNDS_CODES = new Set(['balance_insufficient', 'insufficient_funds']);
const INSUFFICIENT_FUNDS_REASON =
  'The platform balance is too low to send this payout now; it can be sent again later.';
const CREDIT_PRODUCT_NAME = 'Fabric compute credits';

export interface StripeProviderOptions {
  /** sk_live_… / sk_test_… (or a restricted key allowed to write Accounts, Checkout, Transfers). */
  secretKey: string;
  /**
   * The endpoint signing secret (whsec_…). Several may be given, separated by commas: Stripe
   * signs the platform's own events and the connected accounts' events (account.updated) from
   * two endpoints with two secrets even when both point at the same URL.
   */
  webhookSecret: string;
  /** Injected in tests; the global fetch otherwise. */
  fetch?: typeof fetch;
  /** Default https://api.stripe.com. */
  apiBase?: string;
}

// ---- Stripe objects (only the fields we read) ----

const stripeErrorBody = z.object({
  error: z.object({
    message: z.string().optional(),
    type: z.string().optional(),
    code: z.string().optional(),
  }),
});

const metadataSchema = z.record(z.string(), z.string()).nullish();

/** A bank account or card, as external accounts and payment methods carry them. */
const fingerprinted = z.object({ fingerprint: z.string().nullish() });

const accountSchema = z.object({
  id: z.string().min(1),
  payouts_enabled: z.boolean().nullish(),
  requirements: z.object({ currently_due: z.array(z.string()).nullish() }).nullish(),
  external_accounts: z.object({ data: z.array(fingerprinted) }).nullish(),
});

/**
 * A Checkout Session with `expand[]=payment_intent.payment_method`: the payment method holds its
 * instrument under its type (`card`, `us_bank_account`, `sepa_debit`, `link`…), each with a
 * fingerprint when Stripe gives one.
 */
const paidSessionSchema = z.object({
  id: z.string().min(1),
  payment_intent: z
    .union([
      z.string(),
      z.object({
        payment_method: z
          .union([z.string(), z.object({ type: z.string() }).catchall(z.unknown())])
          .nullish(),
      }),
    ])
    .nullish(),
});

const accountLinkSchema = z.object({ url: z.string().min(1) });

const checkoutSessionSchema = z.object({
  id: z.string().min(1),
  url: z.string().nullish(),
  payment_status: z.string().optional(),
  amount_total: z.number().int().nullish(),
  currency: z.string().nullish(),
  client_reference_id: z.string().nullish(),
  metadata: metadataSchema,
});

const transferSchema = z.object({
  id: z.string().min(1),
  amount: z.number().int().optional(),
  amount_reversed: z.number().int().optional(),
  reversed: z.boolean().optional(),
  metadata: metadataSchema,
});

const eventSchema = z.object({
  id: z.string(),
  type: z.string().min(1),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});

type StripeAccount = z.infer<typeof accountSchema>;
type FormFields = [string, string | number | boolean][];

interface StripeErrorDetails {
  status: number;
  type: string | undefined;
  code: string | undefined;
  message: string | undefined;
}

/** A 4xx answer with Stripe's error object, kept apart so sendPayout can turn some into 'failed'. */
class StripeRequestError extends Error {
  override readonly name = 'StripeRequestError';
  constructor(readonly details: StripeErrorDetails) {
    super(details.message ?? `Stripe answered ${details.status}`);
  }
}

/** Stripe's form encoding: keys keep their literal brackets (metadata[user_id]=…). */
export function encodeStripeForm(fields: FormFields): string {
  const params = new URLSearchParams();
  for (const [key, value] of fields) params.append(key, String(value));
  return params.toString().replace(/%5B/g, '[').replace(/%5D/g, ']');
}

export function mapAccountStatus(account: StripeAccount): ConnectedAccountStatus {
  return {
    connected: true,
    payoutsEnabled: account.payouts_enabled === true,
    currentlyDue: account.requirements?.currently_due ?? [],
    payoutFingerprints: fingerprintsOf(account.external_accounts?.data ?? []),
  };
}

function fingerprintsOf(instruments: readonly z.infer<typeof fingerprinted>[]): string[] {
  const found = instruments.flatMap((instrument) =>
    instrument.fingerprint ? [instrument.fingerprint] : [],
  );
  return [...new Set(found)];
}

/** The fingerprint of the instrument a paid session's payment method used, if Stripe gave one. */
export function purchaseFingerprintsOf(session: z.infer<typeof paidSessionSchema>): string[] {
  const intent = session.payment_intent;
  if (!intent || typeof intent === 'string') return [];
  const method = intent.payment_method;
  if (!method || typeof method === 'string') return [];
  const instrument = fingerprinted.safeParse(method[method.type]);
  return instrument.success ? fingerprintsOf([instrument.data]) : [];
}

/**
 * Checks a Stripe-Signature header (`t=<unix seconds>,v1=<hex>[,v1=<hex>…]`) the way Stripe
 * specifies: HMAC-SHA256 of `${t}.${rawBody}` under the endpoint secret, compared in constant
 * time with every v1 signature (there are several while a secret is being rolled), and the
 * timestamp within the tolerance of `now`. Throws WebhookSignatureError when it does not hold.
 */
export function verifyStripeSignature(
  rawBody: string,
  signatureHeader: string | undefined,
  secrets: readonly string[],
  now: Date,
  toleranceSeconds = STRIPE_WEBHOOK_TOLERANCE_SECONDS,
): void {
  if (signatureHeader === undefined || signatureHeader.trim() === '') {
    throw new WebhookSignatureError('The Stripe-Signature header is missing.');
  }
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of signatureHeader.split(',')) {
    const separator = part.indexOf('=');
    if (separator < 0) continue;
    const key = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (key === 't' && /^\d+$/.test(value)) timestamp = Number(value);
    else if (key === 'v1') signatures.push(value);
  }
  if (timestamp === null) {
    throw new WebhookSignatureError('The Stripe-Signature header has no timestamp.');
  }
  if (signatures.length === 0) {
    throw new WebhookSignatureError('The Stripe-Signature header has no v1 signature.');
  }

  const signedPayload = `${timestamp}.${rawBody}`;
  const matches = secrets.some((secret) => {
    const expected = Buffer.from(
      createHmac('sha256', secret).update(signedPayload, 'utf8').digest('hex'),
      'utf8',
    );
    return signatures.some((signature) => {
      const candidate = Buffer.from(signature, 'utf8');
      return candidate.length === expected.length && timingSafeEqual(candidate, expected);
    });
  });
  if (!matches) {
    throw new WebhookSignatureError('No Stripe-Signature v1 signature matches the body.');
  }

  const ageSeconds = Math.floor(now.getTime() / 1000) - timestamp;
  if (Math.abs(ageSeconds) > toleranceSeconds) {
    throw new WebhookSignatureError('The Stripe-Signature timestamp is outside the tolerance.');
  }
}

/**
 * Reads a verified event body into our terms. A body that is not a Stripe event (bad JSON, no
 * type or data.object, a checkout session without an amount) throws a plain Error: the route
 * answers 400 to it as to a WebhookSignatureError.
 */
export function mapStripeEvent(rawBody: string): PaymentEvent {
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch (error) {
    throw new Error('The Stripe webhook body is not JSON.', { cause: error });
  }
  const event = eventSchema.safeParse(json);
  if (!event.success) throw new Error('The Stripe webhook body is not a Stripe event.');
  const { type, data } = event.data;
  const ignored: PaymentEvent = { type: 'ignored', providerType: type };

  switch (type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
    case 'checkout.session.async_payment_failed':
    case 'checkout.session.expired': {
      const session = parseEventObject(checkoutSessionSchema, data.object, type);
      const purchaseId = session.metadata?.purchase_id ?? session.client_reference_id ?? null;
      // A session some other integration made (a Payment Link, say) is none of ours.
      if (purchaseId === null || purchaseId === '') return ignored;
      if (type === 'checkout.session.async_payment_failed' || type === 'checkout.session.expired') {
        return { type: 'credit_purchase_failed', purchaseId, reference: session.id };
      }
      // 'unpaid' on completion means a delayed method (a bank debit): async_payment_* follows.
      if (session.payment_status !== 'paid') return ignored;
      if (session.amount_total === null || session.amount_total === undefined) {
        throw new Error(`The Stripe ${type} event has no amount_total.`);
      }
      if (!session.currency) throw new Error(`The Stripe ${type} event has no currency.`);
      return {
        type: 'credit_purchase_completed',
        purchaseId,
        reference: session.id,
        amountCents: session.amount_total,
        currency: session.currency,
      };
    }
    case 'account.updated': {
      const account = parseEventObject(accountSchema, data.object, type);
      return { type: 'account_updated', accountId: account.id, status: mapAccountStatus(account) };
    }
    case 'transfer.reversed': {
      const transfer = parseEventObject(transferSchema, data.object, type);
      const payoutId = transfer.metadata?.payout_id;
      if (payoutId === undefined || payoutId === '') return ignored;
      // Stripe sends transfer.reversed for partial reversals too; only a whole reversal means
      // the payout did not happen. A partial one is left to a person (it is logged as ignored).
      const wholeReversal =
        transfer.reversed === true ||
        (transfer.amount !== undefined && transfer.amount_reversed === transfer.amount);
      if (!wholeReversal) return ignored;
      return {
        type: 'payout_failed',
        payoutId,
        reference: transfer.id,
        failureReason: 'The transfer was reversed',
      };
    }
    default:
      return ignored;
  }
}

function parseEventObject<T>(schema: z.ZodType<T>, object: unknown, type: string): T {
  const parsed = schema.safeParse(object);
  if (!parsed.success) throw new Error(`The Stripe ${type} event has an unexpected object.`);
  return parsed.data;
}

function secretsOf(webhookSecret: string): string[] {
  return webhookSecret
    .split(',')
    .map((secret) => secret.trim())
    .filter((secret) => secret !== '');
}

export function createStripeProvider(options: StripeProviderOptions): PaymentProvider {
  const doFetch = options.fetch ?? globalThis.fetch;
  const apiBase = (options.apiBase ?? DEFAULT_API_BASE).replace(/\/+$/, '');
  const webhookSecrets = secretsOf(options.webhookSecret);

  async function request<T>(
    method: 'GET' | 'POST',
    path: string,
    schema: z.ZodType<T>,
    post?: { fields: FormFields; idempotencyKey: string },
  ): Promise<T> {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${options.secretKey}`,
      'Stripe-Version': STRIPE_API_VERSION,
      Accept: 'application/json',
    };
    let body: string | undefined;
    if (post !== undefined) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      headers['Idempotency-Key'] = post.idempotencyKey;
      body = encodeStripeForm(post.fields);
    }

    let response: Response;
    let text: string;
    try {
      response = await doFetch(`${apiBase}${path}`, {
        method,
        headers,
        body,
        signal: AbortSignal.timeout(STRIPE_REQUEST_TIMEOUT_MS),
      });
      text = await response.text();
    } catch (error) {
      throw new PaymentProviderError(UNREACHABLE_MESSAGE, { cause: error, isOutcomeUnknown: true });
    }

    // 5xx: Stripe's side failed; 429: rate limited. Both are "try again" (with the same key).
    if (response.status >= 500 || response.status === 429) {
      throw new PaymentProviderError(UNREACHABLE_MESSAGE, {
        cause: new Error(`Stripe answered ${response.status} to ${method} ${path}: ${text}`),
        isOutcomeUnknown: true,
      });
    }

    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new PaymentProviderError(UNEXPECTED_ANSWER_MESSAGE, {
        cause: error,
        isOutcomeUnknown: response.ok,
      });
    }

    if (!response.ok) {
      const parsed = stripeErrorBody.safeParse(json);
      const details: StripeErrorDetails = {
        status: response.status,
        type: parsed.success ? parsed.data.error.type : undefined,
        code: parsed.success ? parsed.data.error.code : undefined,
        message: parsed.success ? parsed.data.error.message : undefined,
      };
      throw new StripeRequestError(details);
    }

    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      // A 2xx we cannot read: the work was probably done; asking again with the key tells.
      throw new PaymentProviderError(UNEXPECTED_ANSWER_MESSAGE, {
        cause: parsed.error,
        isOutcomeUnknown: true,
      });
    }
    return parsed.data;
  }

  /** A Stripe 4xx as the error callers see: Stripe's message for card and request errors. */
  function toProviderError(error: unknown): unknown {
    if (!(error instanceof StripeRequestError)) return error;
    const { status, type, message } = error.details;
    // A 401/403 (a bad or restricted key) is our configuration, and its message names the key.
    const userFacing =
      (type === 'card_error' || type === 'invalid_request_error') &&
      status !== 401 &&
      status !== 403 &&
      message !== undefined &&
      message !== '';
    return new PaymentProviderError(userFacing ? message : REFUSED_MESSAGE, { cause: error });
  }

  async function call<T>(
    method: 'GET' | 'POST',
    path: string,
    schema: z.ZodType<T>,
    post?: { fields: FormFields; idempotencyKey: string },
  ): Promise<T> {
    try {
      return await request(method, path, schema, post);
    } catch (error) {
      throw toProviderError(error);
    }
  }

  return {
    name: 'stripe',

    async createOnboardingLink(req: OnboardingRequest) {
      let accountId = req.existingAccountId;
      if (accountId === null) {
        const account = await call('POST', '/v1/accounts', accountSchema, {
          idempotencyKey: `fabric-connected-account-${req.userId}`,
          fields: [
            ['type', 'express'],
            ['email', req.email],
            ['capabilities[transfers][requested]', true],
            ['metadata[user_id]', req.userId],
          ],
        });
        accountId = account.id;
      }
      // Links are single-use and expire within minutes, and making one moves no money: each
      // call gets a fresh key, so asking again after the link expired yields a new link.
      const link = await call('POST', '/v1/account_links', accountLinkSchema, {
        idempotencyKey: `fabric-account-link-${accountId}-${randomUUID()}`,
        fields: [
          ['account', accountId],
          ['refresh_url', req.refreshUrl],
          ['return_url', req.returnUrl],
          ['type', 'account_onboarding'],
        ],
      });
      return { accountId, url: link.url };
    },

    async getAccountStatus(accountId: string) {
      const account = await call(
        'GET',
        `/v1/accounts/${encodeURIComponent(accountId)}`,
        accountSchema,
      );
      return mapAccountStatus(account);
    },

    async startCreditPurchase(req: CreditPurchaseRequest): Promise<CreditPurchaseStart> {
      const session = await call('POST', '/v1/checkout/sessions', checkoutSessionSchema, {
        idempotencyKey: `fabric-credit-purchase-${req.purchaseId}`,
        fields: [
          ['mode', 'payment'],
          ['line_items[0][price_data][currency]', 'usd'],
          ['line_items[0][price_data][unit_amount]', req.amountCents],
          ['line_items[0][price_data][product_data][name]', CREDIT_PRODUCT_NAME],
          ['line_items[0][quantity]', 1],
          ['success_url', req.successUrl],
          ['cancel_url', req.cancelUrl],
          ['client_reference_id', req.purchaseId],
          ['metadata[purchase_id]', req.purchaseId],
          ['metadata[user_id]', req.userId],
          ['customer_email', req.email],
        ],
      });
      if (session.url === null || session.url === undefined || session.url === '') {
        throw new PaymentProviderError(UNEXPECTED_ANSWER_MESSAGE, {
          cause: new Error(`Checkout Session ${session.id} has no url`),
        });
      }
      return { status: 'pending', reference: session.id, checkoutUrl: session.url };
    },

    async purchaseFingerprints(reference: string): Promise<string[]> {
      const session = await call(
        'GET',
        `/v1/checkout/sessions/${encodeURIComponent(reference)}?expand[]=payment_intent.payment_method`,
        paidSessionSchema,
      );
      return purchaseFingerprintsOf(session);
    },

    async sendPayout(req: PayoutRequest): Promise<PayoutStart> {
      try {
        const transfer = await request('POST', '/v1/transfers', transferSchema, {
          idempotencyKey: req.idempotencyKey,
          fields: [
            ['amount', req.amountCents],
            ['currency', 'usd'],
            ['destination', req.accountId],
            ['transfer_group', req.payoutId],
            ['metadata[payout_id]', req.payoutId],
          ],
        });
        return { status: 'paid', reference: transfer.id };
      } catch (error) {
        if (
          error instanceof StripeRequestError &&
          error.details.code !== undefined &&
          INSUFFICIENT_FUNDS_CODES.has(error.details.code)
        ) {
          return { status: 'failed', reference: null, failureReason: INSUFFICIENT_FUNDS_REASON };
        }
        throw toProviderError(error);
      }
    },

    parseWebhook(rawBody: string, signatureHeader: string | undefined, now: Date): PaymentEvent {
      verifyStripeSignature(rawBody, signatureHeader, webhookSecrets, now);
      return mapStripeEvent(rawBody);
    },
  };
}
