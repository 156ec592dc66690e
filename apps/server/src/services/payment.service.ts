import {
  ERROR_CODES,
  idSchema,
  MICRO_DOLLARS_PER_DOLLAR,
  type AddCreditsResponse,
  type BalanceResponse,
  type ConnectStatusResponse,
  type PayoutResponse,
  type Role,
  type TransactionListResponse,
  TRANSACTION_KINDS,
} from '@fabric/contract';

type TransactionKind = (typeof TRANSACTION_KINDS)[number];
import type { FastifyBaseLogger } from 'fastify';
import type { LedgerTransactionKind, PayoutRow } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import { HttpError } from '../lib/http-errors.ts';
import { idempotencyConflict as idempotencyConflictOf } from '../lib/idempotency-key.ts';
import { loggableError } from '../lib/loggable-error.ts';
import { dollarsToMicroDollars, formatMicroDollars } from '../lib/money.ts';
import {
  PaymentProviderError,
  type ConnectedAccountStatus,
  type PaymentEvent,
  type PaymentProvider,
} from '../payments/payment-provider.ts';
import { SANDBOX_REQUIREMENTS } from '../payments/sandbox-provider.ts';
import type { Repositories } from '../repositories/index.ts';
import type { HistoryRow } from '../repositories/ledger.repository.ts';
import { InsufficientFundsError, postLedgerTransaction } from './ledger.ts';
import { recordPaymentFingerprints } from './linked-accounts.ts';
import { notify } from './notify.ts';
import { renderStatement } from './statement.ts';

const MICROS_PER_CENT = MICRO_DOLLARS_PER_DOLLAR / 100;
/** Credits are sold in US dollars only (the Checkout line item says so). */
const CREDIT_CURRENCY = 'usd';
const CHART_DAYS = 30;
/** A payout still pending this long after it was created is asked about again. */
const PAYOUT_RETRY_AFTER_MILLISECONDS = 60_000;
/** A statement lists every movement of its month (a month of one user stays far below this). */
const STATEMENT_MAX_ROWS = 10_000;
const DAY_MILLISECONDS = 24 * 60 * 60 * 1000;

export const PAYOUTS_NOT_ENABLED_MESSAGE =
  'Connect a bank account that can receive payouts in Settings before requesting a payout.';

/** Dollars to 2 decimals, as the API shows money (exact micro-dollars stay in the ledger). */
export function toDollars(micros: number): number {
  return Math.round(micros / MICROS_PER_CENT) / 100;
}

export function startOfUtcMonth(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1));
}

/** "2026-11" */
export function monthKey(date: Date): string {
  return `${date.getUTCFullYear().toString()}-${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
}

const monthName = new Intl.DateTimeFormat('en-US', {
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

/** The description a user reads for one row of their history. */
function describe(row: HistoryRow): string {
  switch (row.kind) {
    case 'job_charge':
      return row.amountMicros > 0 ? `Earnings: ${row.description}` : `Charge: ${row.description}`;
    default:
      return row.description;
  }
}

const idempotencyConflict = () => idempotencyConflictOf('a different amount');

/**
 * Money seen from the API: balances and history from the ledger, credit purchases and payouts
 * through the payment provider, bank connection, and the monthly settlement of earnings.
 */
export function createPaymentService(options: {
  repositories: Repositories;
  provider: PaymentProvider;
  clock: Clock;
  publicUrl: string;
  logger: FastifyBaseLogger;
}) {
  const { repositories, provider, clock, publicUrl, logger } = options;

  async function balanceOf(userId: string, role: Role): Promise<BalanceResponse> {
    const now = clock();
    const balances = await repositories.ledger.balancesOfUser(userId);
    const monthStart = startOfUtcMonth(now);
    const chartStart = new Date(
      Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) -
        (CHART_DAYS - 1) * DAY_MILLISECONDS,
    );
    const [lifetimeNet, monthNet, byDay] = await Promise.all([
      repositories.ledger.netOfKinds(userId, ['job_charge']),
      repositories.ledger.netOfKinds(userId, ['job_charge'], monthStart),
      repositories.ledger.netByDay(userId, ['job_charge'], chartStart),
    ]);
    const isProvider = role === 'node_provider';
    const available = isProvider ? balances.provider_available : balances.enterprise_credits;
    // Earnings are positive for a provider; spending is the negative of an enterprise's charges.
    const sign = isProvider ? 1 : -1;
    const perDay = new Map(byDay.map((day) => [day.date, day.amountMicros]));
    return {
      balance: toDollars(available),
      credits_balance: toDollars(available),
      held_credits: toDollars(balances.enterprise_holds),
      pending_earnings: toDollars(balances.provider_pending),
      lifetime_earnings: isProvider ? toDollars(lifetimeNet) : 0,
      lifetime_spending: isProvider ? 0 : toDollars(-lifetimeNet),
      this_month: toDollars(sign * monthNet),
      by_day: Array.from({ length: CHART_DAYS }, (_, index) => {
        const date = new Date(chartStart.getTime() + index * DAY_MILLISECONDS)
          .toISOString()
          .slice(0, 10);
        return { date, amount: toDollars(sign * (perDay.get(date) ?? 0)) };
      }),
    };
  }

  /**
   * Before a paid purchase is granted: the fingerprint of the card or bank account that paid it,
   * so an enterprise paying with its provider account's payout instrument is linked to it. A
   * provider that cannot be asked now fails the webhook, which the provider delivers again.
   */
  async function recordPurchaseFingerprints(purchaseId: string, reference: string): Promise<void> {
    if (!idSchema.safeParse(purchaseId).success) return;
    const purchase = await repositories.payments.findPurchase(purchaseId);
    if (!purchase || purchase.status === 'completed') return;
    await recordPaymentFingerprints(repositories, logger, {
      userId: purchase.userId,
      fingerprints: await provider.purchaseFingerprints(reference),
      source: 'purchase',
      now: clock(),
    });
  }

  /**
   * Moves the purchase's amount from the outside world to the credits, once. `paid` is what the
   * provider says was paid (a webhook); the sandbox, which pays at once, gives none. A purchase is
   * granted only while pending, and only when the provider's session, amount and currency are the
   * ones this purchase was opened with; anything else is refused and raised as an alert for a
   * person to look at (money may have been taken for a purchase we did not grant).
   */
  async function grantPurchase(
    purchaseId: string,
    reference: string,
    paid?: { amountCents: number; currency: string },
  ): Promise<void> {
    await repositories.transaction(async (transaction) => {
      const purchase = await transaction.payments.lockPurchase(purchaseId);
      if (!purchase || purchase.status === 'completed') return;
      const mismatch =
        purchase.status !== 'pending'
          ? `the purchase is ${purchase.status}`
          : purchase.reference !== null && purchase.reference !== reference
            ? `session ${reference} is not the purchase's session ${purchase.reference}`
            : paid && paid.currency.toLowerCase() !== CREDIT_CURRENCY
              ? `paid in ${paid.currency}, not ${CREDIT_CURRENCY}`
              : paid && paid.amountCents * MICROS_PER_CENT !== purchase.amountMicros
                ? `paid ${paid.amountCents.toString()} cents for a purchase of ${formatMicroDollars(purchase.amountMicros)} dollars`
                : null;
      if (mismatch !== null) {
        logger.error(
          { alert: 'credit_purchase_mismatch', purchaseId, reference, paid },
          `A payment was not granted as credits: ${mismatch}. Check it with the payment provider.`,
        );
        return;
      }
      const now = clock();
      await postLedgerTransaction(transaction, {
        kind: 'credit_purchase',
        description: `Credits purchased (${provider.name === 'sandbox' ? 'sandbox card' : 'card'})`,
        idempotencyKey: `purchase:${purchase.id}`,
        createdAt: now,
        legs: [
          { kind: 'outside_world', userId: null, amountMicros: -purchase.amountMicros },
          {
            kind: 'enterprise_credits',
            userId: purchase.userId,
            amountMicros: purchase.amountMicros,
          },
        ],
      });
      await transaction.payments.updatePurchase(purchase.id, {
        status: 'completed',
        reference,
        updatedAt: now,
      });
    });
  }

  function toPayoutResponse(payout: PayoutRow) {
    return {
      id: payout.id,
      amount: toDollars(payout.amountMicros),
      status: payout.status,
      created_at: payout.createdAt.toISOString(),
    };
  }

  /** The payout reached its end at the provider: the money leaves, or comes back. */
  async function finishPayout(
    payoutId: string,
    outcome: { status: 'paid'; reference: string } | { status: 'failed'; reason: string },
  ): Promise<PayoutRow | undefined> {
    return repositories.transaction(async (transaction) => {
      const payout = await transaction.payments.lockPayout(payoutId);
      if (!payout || payout.status === 'paid' || payout.status === 'failed') return payout;
      const now = clock();
      const amount = payout.amountMicros;
      if (outcome.status === 'paid') {
        await postLedgerTransaction(transaction, {
          kind: 'payout_completed',
          description: 'Payout delivered to the bank account',
          idempotencyKey: `payout:${payout.id}:end`,
          createdAt: now,
          legs: [
            { kind: 'payouts_in_flight', userId: payout.userId, amountMicros: -amount },
            { kind: 'outside_world', userId: null, amountMicros: amount },
          ],
        });
        await notify(transaction, {
          userId: payout.userId,
          kind: 'payout_sent',
          title: `Payout of $${formatMicroDollars(amount)} sent`,
          body: 'It is on its way to your bank account.',
          link: '/billing',
          dedupeKey: `payout-end:${payout.id}`,
          now,
        });
        return transaction.payments.updatePayout(payout.id, {
          status: 'paid',
          reference: outcome.reference,
          updatedAt: now,
        });
      }
      await postLedgerTransaction(transaction, {
        kind: 'payout_returned',
        description: `Payout returned: ${outcome.reason}`,
        idempotencyKey: `payout:${payout.id}:end`,
        createdAt: now,
        legs: [
          { kind: 'payouts_in_flight', userId: payout.userId, amountMicros: -amount },
          { kind: 'provider_available', userId: payout.userId, amountMicros: amount },
        ],
      });
      await notify(transaction, {
        userId: payout.userId,
        kind: 'payout_failed',
        title: `Payout of $${formatMicroDollars(amount)} failed`,
        body: `${outcome.reason}. The amount is back in your available balance.`,
        link: '/billing',
        dedupeKey: `payout-end:${payout.id}`,
        now,
      });
      return transaction.payments.updatePayout(payout.id, {
        status: 'failed',
        failureReason: outcome.reason,
        updatedAt: now,
      });
    });
  }

  /** Stores a connected account's status, and the fingerprints of what it is paid out to. */
  async function applyAccountStatus(
    account: { userId: string; accountId: string },
    status: ConnectedAccountStatus,
  ): Promise<void> {
    const now = clock();
    await repositories.payments.updateAccountStatus(account.accountId, status, now);
    await recordPaymentFingerprints(repositories, logger, {
      userId: account.userId,
      fingerprints: status.payoutFingerprints,
      source: 'payout_account',
      now,
    });
  }

  async function requirePayoutsEnabled(userId: string): Promise<string> {
    const account = await repositories.payments.findAccountOfUser(userId);
    if (!account) {
      throw new HttpError(409, PAYOUTS_NOT_ENABLED_MESSAGE, ERROR_CODES.payoutsNotEnabled);
    }
    if (!account.payoutsEnabled) {
      // The cached status may be old (Stripe): ask once before refusing.
      const status = await provider.getAccountStatus(account.accountId);
      await applyAccountStatus(account, status);
      if (!status.payoutsEnabled) {
        throw new HttpError(409, PAYOUTS_NOT_ENABLED_MESSAGE, ERROR_CODES.payoutsNotEnabled);
      }
    }
    return account.accountId;
  }

  /**
   * Takes `amountMicros` from the available balance into a payout and sends it. Once per
   * idempotency key; never beyond the available balance (the account row is locked and the
   * database refuses a negative balance besides).
   */
  async function payout(
    userId: string,
    amountMicros: number,
    idempotencyKey: string | null,
    isAutomatic: boolean,
  ): Promise<PayoutRow> {
    // A retried request gets its first answer, whatever changed since.
    if (idempotencyKey) {
      const earlier = await repositories.payments.findPayoutByKey(userId, idempotencyKey);
      if (earlier) {
        if (earlier.amountMicros !== amountMicros) throw idempotencyConflict();
        return earlier;
      }
    }
    const accountId = await requirePayoutsEnabled(userId);
    const now = clock();
    let created: PayoutRow;
    try {
      created = await repositories.transaction(async (transaction) => {
        const row = await transaction.payments.insertPayout({
          userId,
          amountMicros,
          status: 'pending',
          provider: provider.name,
          idempotencyKey,
          isAutomatic,
        });
        if (!row) throw new RetryWithKey();
        await postLedgerTransaction(transaction, {
          kind: 'payout',
          description: isAutomatic
            ? 'Automatic payout to your bank account'
            : 'Payout to your bank account',
          idempotencyKey: `payout:${row.id}`,
          createdAt: now,
          legs: [
            { kind: 'provider_available', userId, amountMicros: -amountMicros },
            { kind: 'payouts_in_flight', userId, amountMicros },
          ],
        });
        return row;
      });
    } catch (error) {
      if (error instanceof RetryWithKey && idempotencyKey) {
        // Another request with the same key won the race: answer with its payout.
        const earlier = await repositories.payments.findPayoutByKey(userId, idempotencyKey);
        if (earlier && earlier.amountMicros === amountMicros) return earlier;
        throw idempotencyConflict();
      }
      if (error instanceof InsufficientFundsError) {
        throw new HttpError(
          409,
          `Insufficient balance: $${formatMicroDollars(error.availableMicros)} is available for payout.`,
          ERROR_CODES.insufficientFunds,
          'amount',
        );
      }
      throw error;
    }

    return sendPayout(created, accountId);
  }

  /**
   * Sends a pending payout to the provider (again, with the same idempotency key, when an earlier
   * try got no clear answer) and records how it ended. When the provider's answer is unknown the
   * payout stays pending, its money in flight, for retryPendingPayouts: returning the money then
   * could pay the provider twice if the transfer did go through.
   */
  async function sendPayout(payout: PayoutRow, accountId: string): Promise<PayoutRow> {
    try {
      const sent = await provider.sendPayout({
        payoutId: payout.id,
        accountId,
        amountCents: Math.round(payout.amountMicros / MICROS_PER_CENT),
        idempotencyKey: `fabric-payout-${payout.id}`,
      });
      if (sent.status === 'failed') {
        return (
          (await finishPayout(payout.id, { status: 'failed', reason: sent.failureReason })) ??
          payout
        );
      }
      if (sent.status === 'in_transit') {
        return (
          (await repositories.payments.updatePayout(payout.id, {
            status: 'in_transit',
            reference: sent.reference,
            updatedAt: clock(),
          })) ?? payout
        );
      }
      return (
        (await finishPayout(payout.id, { status: 'paid', reference: sent.reference })) ?? payout
      );
    } catch (error) {
      logger.error(loggableError(error), 'Payout could not be sent');
      if (error instanceof PaymentProviderError && error.isOutcomeUnknown) return payout;
      const reason =
        error instanceof PaymentProviderError ? error.userMessage : 'The payout could not be sent';
      await finishPayout(payout.id, { status: 'failed', reason });
      throw new HttpError(502, `${reason}. Your balance was not changed.`, ERROR_CODES.unavailable);
    }
  }

  async function onboardingLink(userId: string, email: string): Promise<{ url: string }> {
    const existing = await repositories.payments.findAccountOfUser(userId);
    const link = await provider.createOnboardingLink({
      userId,
      email,
      existingAccountId: existing?.accountId ?? null,
      returnUrl: new URL('/settings?stripe_connected=true', publicUrl).href,
      refreshUrl: new URL('/settings', publicUrl).href,
    });
    if (!existing) {
      await repositories.payments.upsertAccount({
        userId,
        provider: provider.name,
        accountId: link.accountId,
        payoutsEnabled: false,
        currentlyDue: provider.name === 'sandbox' ? SANDBOX_REQUIREMENTS : [],
        now: clock(),
      });
    }
    return { url: link.url };
  }

  return {
    provider,

    balance: balanceOf,

    async transactions(
      userId: string,
      query: {
        page: number;
        page_size: number;
        direction?: 'in' | 'out' | undefined;
        month?: string | undefined;
      },
    ): Promise<TransactionListResponse> {
      const from = query.month ? new Date(`${query.month}-01T00:00:00.000Z`) : undefined;
      const until = from
        ? new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + 1, 1))
        : undefined;
      const { rows, total } = await repositories.ledger.historyPage(
        { userId, direction: query.direction, from, until },
        { limit: query.page_size, offset: (query.page - 1) * query.page_size },
      );
      return {
        transactions: rows.map((row) => ({
          id: row.id,
          created_at: row.createdAt.toISOString(),
          description: describe(row),
          amount: toDollars(row.amountMicros),
          kind: transactionKindOf(row.kind),
          job_id: row.jobId,
        })),
        page: query.page,
        page_size: query.page_size,
        total,
      };
    },

    /** Enterprise credits by card: granted at once (sandbox) or after the provider's checkout. */
    async addCredits(
      user: { id: string; email: string },
      amountDollars: number,
      idempotencyKey: string | null,
    ): Promise<AddCreditsResponse> {
      const amountMicros = dollarsToMicroDollars(amountDollars);
      let purchase = idempotencyKey
        ? await repositories.payments.findPurchaseByKey(user.id, idempotencyKey)
        : undefined;
      purchase ??= await repositories.payments.insertPurchase({
        userId: user.id,
        amountMicros,
        status: 'pending',
        provider: provider.name,
        idempotencyKey,
      });
      if (!purchase && idempotencyKey) {
        // Another request with the same key won the insert: this one is a retry of it.
        purchase = await repositories.payments.findPurchaseByKey(user.id, idempotencyKey);
      }
      if (!purchase) throw new Error('Credit purchase was not recorded');
      // A key reused with other parameters is refused (Stripe's own rule), whichever request
      // inserted the purchase: the answer must never mix one request's amount with another's.
      if (purchase.amountMicros !== amountMicros) throw idempotencyConflict();

      if (purchase.status === 'pending' && !purchase.reference) {
        let started;
        try {
          started = await provider.startCreditPurchase({
            purchaseId: purchase.id,
            userId: user.id,
            email: user.email,
            // Always the stored amount: the purchase, not this request, says what is being bought.
            amountCents: Math.round(purchase.amountMicros / MICROS_PER_CENT),
            successUrl: new URL('/billing?credits=added', publicUrl).href,
            cancelUrl: new URL('/billing', publicUrl).href,
          });
        } catch (error) {
          // The error handler answers a provider's refusal with 502 and its message.
          await repositories.payments.updatePurchase(purchase.id, {
            status: 'failed',
            updatedAt: clock(),
          });
          throw error;
        }
        if (started.status === 'completed') {
          await grantPurchase(purchase.id, started.reference);
          return {
            message: 'Credits added successfully',
            status: 'completed',
            checkout_url: null,
            balance: await balanceOf(user.id, 'enterprise'),
          };
        }
        await repositories.payments.updatePurchase(purchase.id, {
          reference: started.reference,
          updatedAt: clock(),
        });
        return {
          message: 'Complete the payment to add the credits',
          status: 'pending',
          checkout_url: started.checkoutUrl,
          balance: await balanceOf(user.id, 'enterprise'),
        };
      }
      return {
        message:
          purchase.status === 'completed'
            ? 'Credits added successfully'
            : 'The payment is not complete yet',
        status: purchase.status === 'completed' ? 'completed' : 'pending',
        checkout_url: null,
        balance: await balanceOf(user.id, 'enterprise'),
      };
    },

    async requestPayout(
      userId: string,
      amountDollars: number,
      idempotencyKey: string | null,
    ): Promise<PayoutResponse> {
      const row = await payout(userId, dollarsToMicroDollars(amountDollars), idempotencyKey, false);
      return {
        message: 'Payout requested successfully',
        payout: toPayoutResponse(row),
        balance: await balanceOf(userId, 'node_provider'),
      };
    },

    onboardingLink,

    /** A printable HTML statement of the user's ledger for one UTC month. */
    async statement(
      user: { id: string; email: string; role: Role; organizationName: string | null },
      month: string,
    ): Promise<string> {
      const from = new Date(`${month}-01T00:00:00.000Z`);
      const until = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + 1, 1));
      const [opening, closing, history] = await Promise.all([
        repositories.ledger.walletSumBefore(user.id, from),
        repositories.ledger.walletSumBefore(user.id, until),
        repositories.ledger.historyPage(
          { userId: user.id, from, until },
          { limit: STATEMENT_MAX_ROWS, offset: 0 },
        ),
      ]);
      return renderStatement({
        email: user.email,
        organizationName: user.organizationName,
        role: user.role,
        month,
        openingMicros: opening,
        closingMicros: closing,
        rows: history.rows,
        describe,
        generatedAt: clock(),
      });
    },

    async connectStatus(userId: string): Promise<ConnectStatusResponse> {
      const account = await repositories.payments.findAccountOfUser(userId);
      if (!account) {
        return { connected: false, payouts_enabled: false, requirements: { currently_due: [] } };
      }
      const status = await provider.getAccountStatus(account.accountId);
      await applyAccountStatus(account, status);
      return {
        connected: status.connected,
        payouts_enabled: status.payoutsEnabled,
        requirements: { currently_due: status.currentlyDue },
      };
    },

    /** The sandbox's hosted onboarding was completed: the account can receive payouts. */
    async completeSandboxOnboarding(accountId: string): Promise<void> {
      await repositories.payments.updateAccountStatus(
        accountId,
        { payoutsEnabled: true, currentlyDue: [] },
        clock(),
      );
    },

    /** A verified provider event: apply it (every branch is safe to receive twice). */
    async applyEvent(event: PaymentEvent): Promise<void> {
      switch (event.type) {
        case 'credit_purchase_completed':
          await recordPurchaseFingerprints(event.purchaseId, event.reference);
          await grantPurchase(event.purchaseId, event.reference, {
            amountCents: event.amountCents,
            currency: event.currency,
          });
          return;
        case 'credit_purchase_failed':
          await repositories.transaction(async (transaction) => {
            const purchase = await transaction.payments.lockPurchase(event.purchaseId);
            if (purchase?.status === 'pending') {
              await transaction.payments.updatePurchase(purchase.id, {
                status: 'failed',
                updatedAt: clock(),
              });
            }
          });
          return;
        case 'account_updated': {
          const account = await repositories.payments.findAccountById(event.accountId);
          if (account) await applyAccountStatus(account, event.status);
          return;
        }
        case 'payout_paid':
          await finishPayout(event.payoutId, { status: 'paid', reference: event.reference });
          return;
        case 'payout_failed':
          await finishPayout(event.payoutId, { status: 'failed', reason: event.failureReason });
          return;
        case 'ignored':
          return;
      }
    },

    /**
     * Sends again the payouts whose provider call got no clear answer (same idempotency key, so a
     * transfer that did happen is not repeated). Safe in several processes: a payout that ends is
     * finished under its row lock once.
     */
    async retryPendingPayouts(): Promise<number> {
      const cutoff = new Date(clock().getTime() - PAYOUT_RETRY_AFTER_MILLISECONDS);
      let finished = 0;
      for (const pending of await repositories.payments.listPendingPayoutsBefore(cutoff, 50)) {
        const account = await repositories.payments.findAccountOfUser(pending.userId);
        if (!account) continue;
        const after = await sendPayout(pending, account.accountId).catch(() => undefined);
        if (after && after.status !== 'pending') finished += 1;
      }
      return finished;
    },

    /**
     * Monthly settlement: earnings credited before this month began become available ('Ready
     * for payout'); then providers whose available balance reached their minimum payout are paid
     * automatically, once a month. Safe to run any number of times, in any number of processes:
     * each settlement and automatic payout has its own idempotency key.
     */
    async settle(): Promise<{ settled: number; paidOut: number }> {
      const now = clock();
      const monthStart = startOfUtcMonth(now);
      const previousMonth = new Date(monthStart.getTime() - DAY_MILLISECONDS);
      let settled = 0;
      for (const userId of await repositories.payments.providersWithPendingEarnings()) {
        const didSettle = await repositories.transaction(async (transaction) => {
          const pending = await transaction.ledger.ensureAccount('provider_pending', userId);
          await transaction.ledger.lockAccounts([pending.id]);
          const earned = await transaction.ledger.sumOfAccountBefore(pending.id, monthStart);
          // Earnings from jobs of an enterprise linked to this provider stay pending, held.
          const held = await transaction.linkedAccounts.linkedEarningsBefore(
            userId,
            pending.id,
            monthStart,
          );
          if (held > 0) {
            await notify(transaction, {
              userId,
              kind: 'earnings_settled',
              title: `$${formatMicroDollars(held)} of earnings held for review`,
              body:
                'They come from jobs of an enterprise account that shares a payment method with ' +
                'yours; a person will review them before they can be paid out.',
              link: '/billing',
              dedupeKey: `settlement-held:${userId}:${monthKey(previousMonth)}`,
              now,
            });
          }
          const amount = earned - Math.max(0, held);
          if (amount <= 0) return false;
          const posted = await postLedgerTransaction(transaction, {
            kind: 'settlement',
            description: `Earnings up to ${monthName.format(previousMonth)} settled`,
            idempotencyKey: `settlement:${userId}:${monthKey(previousMonth)}`,
            createdAt: now,
            legs: [
              { kind: 'provider_pending', userId, amountMicros: -amount },
              { kind: 'provider_available', userId, amountMicros: amount },
            ],
          });
          if (!posted?.isNew) return false;
          await notify(transaction, {
            userId,
            kind: 'earnings_settled',
            title: `$${formatMicroDollars(amount)} of earnings ready for payout`,
            body: `Your earnings up to ${monthName.format(previousMonth)} are settled and available.`,
            link: '/billing',
            dedupeKey: `settlement:${userId}:${monthKey(previousMonth)}`,
            now,
          });
          return true;
        });
        if (didSettle) settled += 1;
      }

      let paidOut = 0;
      for (const due of await repositories.payments.providersDueAutomaticPayout()) {
        // Whole cents only: a bank moves nothing smaller.
        const amount = Math.floor(due.availableMicros / MICROS_PER_CENT) * MICROS_PER_CENT;
        if (amount <= 0) continue;
        try {
          await payout(due.userId, amount, `automatic:${monthKey(now)}`, true);
          paidOut += 1;
        } catch (error) {
          logger.warn({ ...loggableError(error), userId: due.userId }, 'Automatic payout not sent');
        }
      }
      return { settled, paidOut };
    },
  };
}

class RetryWithKey extends Error {}

/** History rows are user-visible movements; holds and confirmations net to zero and never show. */
function transactionKindOf(kind: LedgerTransactionKind): TransactionKind {
  return (TRANSACTION_KINDS as readonly string[]).includes(kind)
    ? (kind as TransactionKind)
    : 'job_charge';
}

export type PaymentService = ReturnType<typeof createPaymentService>;
