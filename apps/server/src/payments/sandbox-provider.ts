import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { apiPaths } from '@fabric/contract';
import type { Repositories } from '../repositories/index.ts';
import {
  WebhookSignatureError,
  type ConnectedAccountStatus,
  type PaymentProvider,
} from './payment-provider.ts';

/** What a new sandbox account must still provide, as Stripe would list it. */
export const SANDBOX_REQUIREMENTS = ['external_account', 'tos_acceptance.date'];
/** An onboarding link works this long, like Stripe's account links. */
const ONBOARDING_LINK_SECONDS = 10 * 60;

export interface SignedOnboarding {
  accountId: string;
  expires: number;
  signature: string;
}

/**
 * The built-in payment provider: no keys and no network. Card payments and payouts succeed at
 * once; a connected account lives in our payment_accounts table and is completed on an
 * onboarding page this server serves (GET/POST /api/payment/sandbox/onboarding), reached through a
 * signed, expiring link, exactly where Stripe's hosted onboarding would be.
 */
export function createSandboxProvider(options: {
  repositories: Repositories;
  publicUrl: string;
  secret: string;
  clock: () => Date;
}): PaymentProvider & {
  verifyOnboardingLink(link: SignedOnboarding, now: Date): boolean;
} {
  const { repositories, publicUrl, secret, clock } = options;

  function sign(accountId: string, expires: number): string {
    return createHmac('sha256', secret)
      .update(`sandbox-onboarding:${accountId}:${expires.toString()}`)
      .digest('hex');
  }

  return {
    name: 'sandbox',

    createOnboardingLink(request) {
      const accountId =
        request.existingAccountId ?? `acct_sandbox_${randomUUID().replaceAll('-', '')}`;
      const expires = Math.floor(clock().getTime() / 1000) + ONBOARDING_LINK_SECONDS;
      const url = new URL(apiPaths.payment.sandboxOnboarding, publicUrl);
      url.searchParams.set('account', accountId);
      url.searchParams.set('expires', expires.toString());
      url.searchParams.set('signature', sign(accountId, expires));
      return Promise.resolve({ accountId, url: url.href });
    },

    async getAccountStatus(accountId): Promise<ConnectedAccountStatus> {
      const account = await repositories.payments.findAccountById(accountId);
      // The sandbox's onboarding asks for no real bank account: nothing to fingerprint.
      if (!account) {
        return {
          connected: false,
          payoutsEnabled: false,
          currentlyDue: [],
          payoutFingerprints: [],
        };
      }
      return {
        connected: true,
        payoutsEnabled: account.payoutsEnabled,
        currentlyDue: account.currentlyDue,
        payoutFingerprints: [],
      };
    },

    startCreditPurchase(request) {
      return Promise.resolve({
        status: 'completed',
        reference: `sandbox_payment_${request.purchaseId}`,
      });
    },

    purchaseFingerprints() {
      return Promise.resolve([]);
    },

    sendPayout(request) {
      return Promise.resolve({ status: 'paid', reference: `sandbox_payout_${request.payoutId}` });
    },

    parseWebhook() {
      throw new WebhookSignatureError('The sandbox payment provider sends no webhooks');
    },

    verifyOnboardingLink(link, now) {
      if (!Number.isSafeInteger(link.expires) || link.expires * 1000 < now.getTime()) return false;
      const expected = Buffer.from(sign(link.accountId, link.expires), 'hex');
      const given = Buffer.from(link.signature, 'hex');
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}

export type SandboxProvider = ReturnType<typeof createSandboxProvider>;
