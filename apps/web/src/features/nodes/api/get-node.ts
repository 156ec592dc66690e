import { apiPaths, idSchema, nodeSchema, type Node } from '@fabric/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { nodesQueryKey } from './get-nodes';

export function getNode(nodeId: string, { signal }: { signal?: AbortSignal } = {}): Promise<Node> {
  return api.get(apiPaths.nodes.detail(nodeId), nodeSchema, { signal });
}

/** Under the node-list prefix, so invalidating ['nodes'] refreshes the node and its details. */
export function nodeQueryKey(nodeId: string) {
  return [...nodesQueryKey, nodeId] as const;
}

export function nodeQueryOptions(nodeId: string) {
  return queryOptions({
    queryKey: nodeQueryKey(nodeId),
    queryFn: ({ signal }) => getNode(nodeId, { signal }),
  });
}

/** Whether a route parameter can name a node at all; anything else is "not found" without a call. */
export function isNodeId(value: string): boolean {
  return idSchema.safeParse(value).success;
}

/** Node data loads only for node providers (spec section 6). */
export function useNode(nodeId: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...nodeQueryOptions(nodeId), enabled });
}
