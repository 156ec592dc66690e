import { z } from 'zod';
import { idSchema, timestampSchema } from './fields.ts';

/** Dollars with at most 2 decimals, above 0 (spec section 5). */
export const amountSchema = z
  .number({ error: 'Amount must be a number' })
  .gt(0, 'Amount must be above 0')
  .max(1_000_000, 'Amount must be at most 1000000.00')
  .refine(
    (amount) => Math.round(amount * 100) / 100 === amount,
    'Amount must have at most 2 decimals',
  );

export const amountRequestSchema = z.object({ amount: amountSchema });
export type AmountRequest = z.infer<typeof amountRequestSchema>;

/**
 * Dollars (numbers with at most 2 decimals, rounded from exact micro-dollars). The spec's client
 * reads both `balance` and `credits_balance`: they carry the same available amount — an
 * enterprise's credits not on hold, or a provider's earnings ready for payout.
 */
export const balanceResponseSchema = z.object({
  balance: z.number(),
  credits_balance: z.number(),
  /** Enterprise: credits held for queued and running jobs (not spendable until they end). */
  held_credits: z.number(),
  /** Provider: earnings of this month and earlier not yet settled ('Processing'). */
  pending_earnings: z.number(),
  lifetime_earnings: z.number(),
  lifetime_spending: z.number(),
  /** Provider: earned this month; enterprise: spent this month (UTC months). */
  this_month: z.number(),
  /** Per day of the last 30 (UTC), oldest first: earned (provider) or spent (enterprise). */
  by_day: z.array(z.object({ date: z.string(), amount: z.number() })),
});
export type BalanceResponse = z.infer<typeof balanceResponseSchema>;

export const TRANSACTION_KINDS = [
  'credit_purchase',
  'job_charge',
  'payout',
  'payout_returned',
  'settlement',
  'account_closed',
] as const;

export const transactionSchema = z.object({
  id: idSchema,
  created_at: timestampSchema,
  description: z.string(),
  /** Signed dollars: positive is income or credit, negative is payout or expense. */
  amount: z.number(),
  kind: z.enum(TRANSACTION_KINDS),
  /** The job a charge or an earning is for. */
  job_id: idSchema.nullable(),
});
export type Transaction = z.infer<typeof transactionSchema>;

/** Years a month filter may name: the ledger holds nothing outside them, and dates stay valid. */
export const MONTH_YEAR_RANGE = { first: 2000, last: 2100 } as const;

export const transactionListQuerySchema = z.object({
  page: z.coerce
    .number()
    .int('page must be a whole number')
    .min(1, 'page must be at least 1')
    .default(1),
  page_size: z.coerce
    .number()
    .int('page_size must be a whole number')
    .min(1, 'page_size must be at least 1')
    .max(100, 'page_size must be at most 100')
    .default(20),
  /** `in`: amounts above 0; `out`: below 0 (the Billing tabs). */
  direction: z.enum(['in', 'out'], { error: 'direction must be in or out' }).optional(),
  /** A month "YYYY-MM" (UTC) of MONTH_YEAR_RANGE: only its transactions (statements). */
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'month must look like 2026-11')
    .refine((month) => {
      const year = Number(month.slice(0, 4));
      return year >= MONTH_YEAR_RANGE.first && year <= MONTH_YEAR_RANGE.last;
    }, `month must be between ${MONTH_YEAR_RANGE.first}-01 and ${MONTH_YEAR_RANGE.last}-12`)
    .optional(),
});

export const transactionListResponseSchema = z.object({
  transactions: z.array(transactionSchema),
  page: z.number().int(),
  page_size: z.number().int(),
  total: z.number().int(),
});
export type TransactionListResponse = z.infer<typeof transactionListResponseSchema>;

export const connectStatusResponseSchema = z.object({
  connected: z.boolean(),
  payouts_enabled: z.boolean(),
  requirements: z.object({ currently_due: z.array(z.string()) }),
});
export type ConnectStatusResponse = z.infer<typeof connectStatusResponseSchema>;

export const onboardingLinkResponseSchema = z.object({ url: z.string() });
export type OnboardingLinkResponse = z.infer<typeof onboardingLinkResponseSchema>;

/** POST /api/payment/add-credits answer. */
export const addCreditsResponseSchema = z.object({
  message: z.string(),
  /** completed: credits are in the balance now; pending: pay at `checkout_url` first. */
  status: z.enum(['completed', 'pending']),
  checkout_url: z.string().nullable(),
  balance: balanceResponseSchema,
});
export type AddCreditsResponse = z.infer<typeof addCreditsResponseSchema>;

export const PAYOUT_STATUSES = ['pending', 'in_transit', 'paid', 'failed'] as const;

export const payoutSchema = z.object({
  id: idSchema,
  amount: z.number(),
  status: z.enum(PAYOUT_STATUSES),
  created_at: timestampSchema,
});

/** POST /api/payment/payout answer. */
export const payoutResponseSchema = z.object({
  message: z.string(),
  payout: payoutSchema,
  balance: balanceResponseSchema,
});
export type PayoutResponse = z.infer<typeof payoutResponseSchema>;

/** Idempotency-Key header of POST /api/payment/payout and add-credits: one key, one movement. */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/** Saved per user (the reference client kept these switches in the page only). */
export const userSettingsSchema = z.object({
  email_notifications: z.boolean(),
  /** Providers: notifications about jobs on their nodes. */
  job_notifications: z.boolean(),
  /** Enterprises: a notification when credits run low. */
  credit_low_alerts: z.boolean(),
  marketing_emails: z.boolean(),
  /** Providers: settled earnings are paid out automatically once at least this much is available. */
  minimum_payout: z.number(),
});
export type UserSettings = z.infer<typeof userSettingsSchema>;

export const updateSettingsRequestSchema = z
  .object({
    email_notifications: z.boolean({ error: 'email_notifications must be true or false' }),
    job_notifications: z.boolean({ error: 'job_notifications must be true or false' }),
    credit_low_alerts: z.boolean({ error: 'credit_low_alerts must be true or false' }),
    marketing_emails: z.boolean({ error: 'marketing_emails must be true or false' }),
    minimum_payout: z
      .number({ error: 'minimum_payout must be a number' })
      .min(1, 'minimum_payout must be at least 1.00')
      .max(1_000_000, 'minimum_payout must be at most 1000000.00')
      .refine(
        (amount) => Math.round(amount * 100) / 100 === amount,
        'minimum_payout must have at most 2 decimals',
      ),
  })
  .partial()
  .strict();
export type UpdateSettingsRequest = z.infer<typeof updateSettingsRequestSchema>;
