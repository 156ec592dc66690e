// One interface in front of card payments and bank payouts. Two implementations: the built-in
// sandbox (the default: no keys, everything completes at once, onboarding is a page of this
// server) and Stripe (when STRIPE_SECRET_KEY is set: Connect Express accounts, Checkout for
// credits, transfers for payouts, signed webhooks). Amounts cross this boundary in whole cents,
// the smallest unit a card network or bank moves.

export interface ConnectedAccountStatus {
  /** A connected account exists for the user (it may still need details). */
  connected: boolean;
  /** The account can receive payouts. */
  payoutsEnabled: boolean;
  /** What the account holder must still provide (Stripe's requirements.currently_due). */
  currentlyDue: string[];
  /**
   * The payment provider's fingerprints of the bank accounts and debit cards the account is paid
   * out to: the same instrument has the same fingerprint wherever it appears on the platform, so
   * a provider paid to the card an enterprise pays with is one person on both sides.
   */
  payoutFingerprints: string[];
}

export interface OnboardingRequest {
  userId: string;
  email: string;
  /** The account made earlier for this user, if any: onboarding continues it. */
  existingAccountId: string | null;
  /** Where the browser goes when onboarding ends (our /settings?stripe_connected=true). */
  returnUrl: string;
  /** Where the browser goes when the link has expired (our Settings page, to ask again). */
  refreshUrl: string;
}

export interface CreditPurchaseRequest {
  /** Our credit_purchases row id: the provider echoes it back in its webhook. */
  purchaseId: string;
  userId: string;
  email: string;
  amountCents: number;
  successUrl: string;
  cancelUrl: string;
}

export type CreditPurchaseStart =
  /** The money has moved already (sandbox): grant the credits now. */
  | { status: 'completed'; reference: string }
  /** The customer pays on the provider's page; a webhook confirms. */
  | { status: 'pending'; reference: string; checkoutUrl: string };

export interface PayoutRequest {
  /** Our payouts row id. */
  payoutId: string;
  accountId: string;
  amountCents: number;
  /** Sent to the provider so a retried call never pays twice. */
  idempotencyKey: string;
}

export type PayoutStart =
  | { status: 'paid'; reference: string }
  | { status: 'in_transit'; reference: string }
  | { status: 'failed'; reference: string | null; failureReason: string };

/** What a verified webhook tells us, in our terms. */
export type PaymentEvent =
  | {
      type: 'credit_purchase_completed';
      purchaseId: string;
      reference: string;
      amountCents: number;
      /** ISO 4217, lower case as Stripe writes it. */
      currency: string;
    }
  | { type: 'credit_purchase_failed'; purchaseId: string; reference: string }
  | { type: 'account_updated'; accountId: string; status: ConnectedAccountStatus }
  | { type: 'payout_paid'; payoutId: string; reference: string }
  | { type: 'payout_failed'; payoutId: string; reference: string; failureReason: string }
  /** Verified but of no interest to us. */
  | { type: 'ignored'; providerType: string };

export class PaymentProviderError extends Error {
  override readonly name = 'PaymentProviderError';
  /** A message fit to show the user (the provider's own, when it gave one). */
  readonly userMessage: string;
  /**
   * The request may or may not have been carried out (no answer, a 5xx, an unreadable answer):
   * repeat it with the same idempotency key to learn which, never treat it as refused.
   */
  readonly isOutcomeUnknown: boolean;
  constructor(userMessage: string, options?: { cause?: unknown; isOutcomeUnknown?: boolean }) {
    super(userMessage, options);
    this.userMessage = userMessage;
    this.isOutcomeUnknown = options?.isOutcomeUnknown ?? false;
  }
}

/** The webhook's signature did not verify: answer 400 and change nothing. */
export class WebhookSignatureError extends Error {
  override readonly name = 'WebhookSignatureError';
}

export interface PaymentProvider {
  readonly name: 'sandbox' | 'stripe';
  /** Creates the user's connected account when there is none, and a link to (continue) onboarding. */
  createOnboardingLink(request: OnboardingRequest): Promise<{ accountId: string; url: string }>;
  getAccountStatus(accountId: string): Promise<ConnectedAccountStatus>;
  startCreditPurchase(request: CreditPurchaseRequest): Promise<CreditPurchaseStart>;
  /**
   * Fingerprints of the card or bank account that paid a completed purchase (`reference`: the
   * provider's id of it); none when the provider cannot tell (the sandbox moves no real money).
   */
  purchaseFingerprints(reference: string): Promise<string[]>;
  sendPayout(request: PayoutRequest): Promise<PayoutStart>;
  /** Verifies and reads a webhook; throws WebhookSignatureError when it is not genuine. */
  parseWebhook(rawBody: string, signatureHeader: string | undefined, now: Date): PaymentEvent;
}
