import { apiPaths, messageResponseSchema, nodeSchema, type Node } from '@fabric/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type ApiError } from '@/lib/api-client';
import { nodeQueryKey } from './get-node';
import { nodesQueryKey } from './get-nodes';

export function pauseNode(nodeId: string): Promise<Node> {
  return api.post(apiPaths.nodes.pause(nodeId), undefined, nodeSchema);
}

export function resumeNode(nodeId: string): Promise<Node> {
  return api.post(apiPaths.nodes.resume(nodeId), undefined, nodeSchema);
}

/** Unenrolls the node: it gets no new jobs, its running job goes back to the queue, its agent exits. */
export async function unenrollNode(nodeId: string): Promise<string> {
  const { message } = await api.delete(apiPaths.nodes.detail(nodeId), messageResponseSchema);
  return message;
}

/** Pause and resume answer with the node: show it at once, then refresh every node query. */
function useNodeStatusChange(change: (nodeId: string) => Promise<Node>) {
  const queryClient = useQueryClient();
  return useMutation<Node, ApiError, string>({
    mutationFn: change,
    onSuccess: (node) => {
      queryClient.setQueryData(nodeQueryKey(node.id), node);
      return queryClient.invalidateQueries({ queryKey: nodesQueryKey });
    },
  });
}

export function usePauseNode() {
  return useNodeStatusChange(pauseNode);
}

export function useResumeNode() {
  return useNodeStatusChange(resumeNode);
}

export function useUnenrollNode() {
  const queryClient = useQueryClient();
  return useMutation<string, ApiError, string>({
    mutationFn: unenrollNode,
    onSuccess: async (_message, nodeId) => {
      // The node is gone: refetching its detail queries now (the screen is still open until the
      // caller navigates away) would only answer 404. Mark every node query stale instead, so the
      // list and dashboard reload when they next show.
      await queryClient.cancelQueries({ queryKey: nodeQueryKey(nodeId) });
      await queryClient.invalidateQueries({ queryKey: nodesQueryKey, refetchType: 'none' });
    },
  });
}
