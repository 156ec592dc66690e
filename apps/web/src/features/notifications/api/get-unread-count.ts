import { apiPaths, unreadCountResponseSchema } from '@fabric/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { notificationsQueryKey } from './get-notifications';

export async function getUnreadCount({ signal }: { signal?: AbortSignal } = {}): Promise<number> {
  const { unread } = await api.get(apiPaths.notifications.unreadCount, unreadCountResponseSchema, {
    signal,
  });
  return unread;
}

export function unreadCountQueryOptions() {
  return queryOptions({
    queryKey: [...notificationsQueryKey, 'unread-count'],
    queryFn: ({ signal }) => getUnreadCount({ signal }),
  });
}

/** No polling: live updates invalidate ['notifications'] whenever one is created or read. */
export function useUnreadCount() {
  return useQuery(unreadCountQueryOptions());
}
