import {
  apiPaths,
  connectStatusResponseSchema,
  type ConnectStatusResponse,
} from '@fabric/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export function getConnectStatus({
  signal,
}: { signal?: AbortSignal } = {}): Promise<ConnectStatusResponse> {
  return api.get(apiPaths.payment.connectStatus, connectStatusResponseSchema, { signal });
}

/** Under ['payment'], so balance changes (live updates) refresh it too. */
export const connectStatusQueryKey = ['payment', 'connect-status'] as const;

export function connectStatusQueryOptions() {
  return queryOptions({
    queryKey: connectStatusQueryKey,
    queryFn: ({ signal }) => getConnectStatus({ signal }),
  });
}

/** Bank connection is for node providers only (spec section 6). */
export function useConnectStatus({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...connectStatusQueryOptions(), enabled });
}
