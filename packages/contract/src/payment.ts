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

/** The spec's client reads both `balance` and `credits_balance`: they carry the same amount. */
export const balanceResponseSchema = z.object({
  balance: z.number(),
  credits_balance: z.number(),
  pending_earnings: z.number(),
  lifetime_earnings: z.number(),
  lifetime_spending: z.number(),
  this_month: z.number(),
});
export type BalanceResponse = z.infer<typeof balanceResponseSchema>;

export const transactionSchema = z.object({
  id: idSchema,
  created_at: timestampSchema,
  description: z.string(),
  /** Signed dollars: positive is income or credit, negative is payout or expense. */
  amount: z.number(),
});
export type Transaction = z.infer<typeof transactionSchema>;

export const transactionListQuerySchema = z.object({
  page: z.coerce
    .number()
    .int('Page must be a whole number')
    .min(1, 'Page must be at least 1')
    .default(1),
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
