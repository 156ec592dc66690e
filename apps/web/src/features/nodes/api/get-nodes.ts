import { apiPaths, nodeListResponseSchema, type Node } from '@fabric/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export async function getNodes({ signal }: { signal?: AbortSignal } = {}): Promise<Node[]> {
  const { nodes } = await api.get(apiPaths.nodes.list, nodeListResponseSchema, { signal });
  return nodes;
}

export const nodesQueryKey = ['nodes'] as const;

/** Spec: the node list is cached 30 s and retried once. */
export function nodesQueryOptions() {
  return queryOptions({
    queryKey: nodesQueryKey,
    queryFn: ({ signal }) => getNodes({ signal }),
    staleTime: 30_000,
    retry: 1,
  });
}

/** Node-list data loads only for node providers (spec section 6). */
export function useNodes({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...nodesQueryOptions(), enabled });
}
