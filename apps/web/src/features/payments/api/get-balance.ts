import { apiPaths, balanceResponseSchema, type BalanceResponse } from '@fabric/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** Every money screen's data sits under this key; live updates and money moves refresh it all. */
export const paymentQueryKey = ['payment'] as const;

export function getBalance({ signal }: { signal?: AbortSignal } = {}): Promise<BalanceResponse> {
  return api.get(apiPaths.payment.balance, balanceResponseSchema, { signal });
}

export function balanceQueryOptions() {
  return queryOptions({
    queryKey: [...paymentQueryKey, 'balance'],
    queryFn: ({ signal }) => getBalance({ signal }),
  });
}

/** The signed-in user's balances from the ledger (both roles). */
export function useBalance() {
  return useQuery(balanceQueryOptions());
}
