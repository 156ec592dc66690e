import {
  apiPaths,
  IDEMPOTENCY_KEY_HEADER,
  payoutResponseSchema,
  type PayoutResponse,
} from '@fabric/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type ApiError } from '@/lib/api-client';
import type { MoneyMove } from './add-credits';
import { paymentQueryKey } from './get-balance';

export function requestPayout({ amount, idempotencyKey }: MoneyMove): Promise<PayoutResponse> {
  return api.post(apiPaths.payment.payout, { amount }, payoutResponseSchema, {
    headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
  });
}

/** Pays available earnings to the provider's connected bank account. */
export function useRequestPayout() {
  const queryClient = useQueryClient();
  return useMutation<PayoutResponse, ApiError, MoneyMove>({
    mutationFn: requestPayout,
    onSettled: () => queryClient.invalidateQueries({ queryKey: paymentQueryKey }),
  });
}
