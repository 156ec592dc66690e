import {
  apiPaths,
  transactionListResponseSchema,
  type TransactionListResponse,
} from '@fabric/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { paymentQueryKey } from './get-balance';

export interface TransactionFilter {
  page: number;
  pageSize: number;
  /** `in`: amounts above 0; `out`: below 0; undefined: all. */
  direction?: 'in' | 'out' | undefined;
}

export function getTransactions(
  { page, pageSize, direction }: TransactionFilter,
  { signal }: { signal?: AbortSignal } = {},
): Promise<TransactionListResponse> {
  return api.get(apiPaths.payment.transactions, transactionListResponseSchema, {
    signal,
    query: { page, page_size: pageSize, direction },
  });
}

export function transactionsQueryOptions(filter: TransactionFilter) {
  return queryOptions({
    queryKey: [...paymentQueryKey, 'transactions', filter],
    queryFn: ({ signal }) => getTransactions(filter, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** One page of the signed-in user's money movements, newest first. */
export function useTransactions(filter: TransactionFilter) {
  return useQuery(transactionsQueryOptions(filter));
}
