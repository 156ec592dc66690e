import { apiPaths, userSettingsSchema, type UserSettings } from '@fabric/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export function getSettings({ signal }: { signal?: AbortSignal } = {}): Promise<UserSettings> {
  return api.get(apiPaths.settings, userSettingsSchema, { signal });
}

export const settingsQueryKey = ['settings'] as const;

export function settingsQueryOptions() {
  return queryOptions({
    queryKey: settingsQueryKey,
    queryFn: ({ signal }) => getSettings({ signal }),
  });
}

export function useSettings() {
  return useQuery(settingsQueryOptions());
}
