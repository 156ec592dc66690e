import { apiPaths, messageResponseSchema, notificationSchema } from '@fabric/contract';
import type { Notification } from '@fabric/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type ApiError } from '@/lib/api-client';
import { notificationsQueryKey } from './get-notifications';

export function markNotificationRead(id: string): Promise<Notification> {
  return api.post(apiPaths.notifications.read(id), undefined, notificationSchema);
}

export async function markAllNotificationsRead(): Promise<string> {
  const { message } = await api.post(
    apiPaths.notifications.readAll,
    undefined,
    messageResponseSchema,
  );
  return message;
}

/** Refreshes the list and the unread count (they share the prefix), even after leaving the page. */
export function useMarkNotificationRead() {
  const queryClient = useQueryClient();
  return useMutation<Notification, ApiError, string>({
    mutationFn: markNotificationRead,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationsQueryKey }),
  });
}

export function useMarkAllNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation<string, ApiError>({
    mutationFn: markAllNotificationsRead,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationsQueryKey }),
  });
}
