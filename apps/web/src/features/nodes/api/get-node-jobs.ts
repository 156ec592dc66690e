import { apiPaths, nodeJobsResponseSchema, type NodeJobAttempt } from '@fabric/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { nodeQueryKey } from './get-node';

/** How many of the node's latest attempts the Node Details screen lists. */
export const RECENT_NODE_JOBS_LIMIT = 20;

/** The node's latest job attempts, newest first. */
export async function getNodeJobs(
  nodeId: string,
  { limit = RECENT_NODE_JOBS_LIMIT, signal }: { limit?: number; signal?: AbortSignal } = {},
): Promise<NodeJobAttempt[]> {
  const { attempts } = await api.get(apiPaths.nodes.jobs(nodeId), nodeJobsResponseSchema, {
    signal,
    query: { limit },
  });
  return attempts;
}

export function nodeJobsQueryKey(nodeId: string) {
  return [...nodeQueryKey(nodeId), 'jobs'] as const;
}

export function nodeJobsQueryOptions(nodeId: string) {
  return queryOptions({
    queryKey: nodeJobsQueryKey(nodeId),
    queryFn: ({ signal }) => getNodeJobs(nodeId, { signal }),
  });
}

export function useNodeJobs(nodeId: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...nodeJobsQueryOptions(nodeId), enabled });
}
