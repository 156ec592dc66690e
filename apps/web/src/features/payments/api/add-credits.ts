import {
  addCreditsResponseSchema,
  apiPaths,
  IDEMPOTENCY_KEY_HEADER,
  type AddCreditsResponse,
} from '@fabric/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type ApiError } from '@/lib/api-client';
import { paymentQueryKey } from './get-balance';

export interface MoneyMove {
  /** Dollars, at most 2 decimals. */
  amount: number;
  /** One key per submission: a retried request never moves the money twice. */
  idempotencyKey: string;
}

export function addCredits({ amount, idempotencyKey }: MoneyMove): Promise<AddCreditsResponse> {
  return api.post(apiPaths.payment.addCredits, { amount }, addCreditsResponseSchema, {
    headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
  });
}

/** Buys credits (enterprise): granted at once, or pending until paid at the checkout URL. */
export function useAddCredits() {
  const queryClient = useQueryClient();
  return useMutation<AddCreditsResponse, ApiError, MoneyMove>({
    mutationFn: addCredits,
    onSettled: () => queryClient.invalidateQueries({ queryKey: paymentQueryKey }),
  });
}
