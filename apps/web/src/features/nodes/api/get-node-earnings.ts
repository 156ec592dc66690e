import { apiPaths, nodeEarningsResponseSchema, type NodeEarningsResponse } from '@fabric/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { nodeQueryKey } from './get-node';

export function getNodeEarnings(
  nodeId: string,
  { signal }: { signal?: AbortSignal } = {},
): Promise<NodeEarningsResponse> {
  return api.get(apiPaths.nodes.earnings(nodeId), nodeEarningsResponseSchema, { signal });
}

export function nodeEarningsQueryKey(nodeId: string) {
  return [...nodeQueryKey(nodeId), 'earnings'] as const;
}

export function nodeEarningsQueryOptions(nodeId: string) {
  return queryOptions({
    queryKey: nodeEarningsQueryKey(nodeId),
    queryFn: ({ signal }) => getNodeEarnings(nodeId, { signal }),
  });
}

export function useNodeEarnings(nodeId: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...nodeEarningsQueryOptions(nodeId), enabled });
}
