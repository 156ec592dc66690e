import {
  apiPaths,
  notificationListResponseSchema,
  type NotificationListResponse,
} from '@fabric/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export function getNotifications(
  page: number,
  { signal }: { signal?: AbortSignal } = {},
): Promise<NotificationListResponse> {
  return api.get(apiPaths.notifications.list, notificationListResponseSchema, {
    signal,
    query: { page },
  });
}

/** Every notification query shares this prefix; live updates invalidate it when one changes. */
export const notificationsQueryKey = ['notifications'] as const;

export function notificationsQueryOptions(page: number) {
  return queryOptions({
    queryKey: [...notificationsQueryKey, 'list', page],
    queryFn: ({ signal }) => getNotifications(page, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** Newest first, a page at a time (the server's page size). */
export function useNotifications(page: number) {
  return useQuery(notificationsQueryOptions(page));
}
