import type { Role } from '@fabric/contract';
import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect } from 'react';
import { followChanges, type StreamMessage } from './change-stream';

/** Changes arriving this close together (a lease, then its first progress) cause one refetch. */
const BATCH_MILLISECONDS = 100;

/**
 * The query keys a change makes stale. Job screens use ['jobs', ...] and ['job', id]; node
 * screens everything under ['nodes'] (a provider's node list, details, earnings and job history
 * also change when a job on the node does); money screens everything under ['payment'];
 * notifications everything under ['notifications'].
 */
export function staleKeysOf(message: StreamMessage, role: Role): QueryKey[] | 'all' {
  if (message.type === 'resync') return 'all';
  const { kind, id } = message.change;
  switch (kind) {
    case 'node':
      return [['nodes']];
    case 'balance':
      return [['payment']];
    case 'notification':
      return [['notifications']];
    case 'job':
      return role === 'node_provider' ? [['nodes']] : [['jobs'], ['job', id]];
  }
}

function keyOf(key: QueryKey): string {
  return JSON.stringify(key);
}

/** Follows the server's change stream while signed in, refetching the screens' data it names. */
export function useLiveUpdates(role: Role): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const controller = new AbortController();
    const pending = new Map<string, QueryKey>();
    let isAllPending = false;
    let timer: ReturnType<typeof setTimeout> | undefined;

    const flush = () => {
      timer = undefined;
      void invalidate(queryClient, isAllPending ? 'all' : [...pending.values()]);
      pending.clear();
      isAllPending = false;
    };

    void followChanges((message) => {
      // The first "ready" comes right after this page loaded its data: nothing to catch up on.
      if (message.type === 'resync' && message.isFirst) return;
      const keys = staleKeysOf(message, role);
      if (keys === 'all') isAllPending = true;
      else for (const key of keys) pending.set(keyOf(key), key);
      timer ??= setTimeout(flush, BATCH_MILLISECONDS);
    }, controller.signal);

    return () => {
      controller.abort();
      if (timer) clearTimeout(timer);
    };
  }, [queryClient, role]);
}

async function invalidate(queryClient: QueryClient, keys: QueryKey[] | 'all'): Promise<void> {
  if (keys === 'all') {
    await queryClient.invalidateQueries();
    return;
  }
  await Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}
