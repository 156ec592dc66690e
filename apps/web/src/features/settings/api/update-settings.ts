import {
  apiPaths,
  userSettingsSchema,
  type UpdateSettingsRequest,
  type UserSettings,
} from '@fabric/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type ApiError } from '@/lib/api-client';
import { settingsQueryKey } from './get-settings';

/** Sends only the fields that change; answers with every setting as saved. */
export function updateSettings(changes: UpdateSettingsRequest): Promise<UserSettings> {
  return api.put(apiPaths.settings, changes, userSettingsSchema);
}

const updateSettingsMutationKey = ['settings', 'update'] as const;

export type NotificationSwitch = Exclude<keyof UserSettings, 'minimum_payout'>;

export interface SwitchChange {
  name: NotificationSwitch;
  checked: boolean;
}

/**
 * Flips one switch at once (optimistic) and saves it. On failure only that switch goes back, so a
 * second switch flipped meanwhile keeps its own state; once the last save settles, the server's
 * settings are read again.
 */
export function useUpdateNotificationSwitch({
  onError,
}: {
  /** Called for every failed save, even when another switch was flipped since. */
  onError?: (error: ApiError, change: SwitchChange) => void;
} = {}) {
  const queryClient = useQueryClient();
  return useMutation<UserSettings, ApiError, SwitchChange, { previous: boolean | undefined }>({
    mutationKey: updateSettingsMutationKey,
    mutationFn: ({ name, checked }) => updateSettings({ [name]: checked }),
    onMutate: async ({ name, checked }) => {
      await queryClient.cancelQueries({ queryKey: settingsQueryKey });
      const previous = queryClient.getQueryData<UserSettings>(settingsQueryKey)?.[name];
      queryClient.setQueryData<UserSettings>(settingsQueryKey, (settings) =>
        settings ? { ...settings, [name]: checked } : settings,
      );
      return { previous };
    },
    onError: (error, change, context) => {
      const previous = context?.previous;
      if (previous !== undefined) {
        queryClient.setQueryData<UserSettings>(settingsQueryKey, (settings) =>
          settings ? { ...settings, [change.name]: previous } : settings,
        );
      }
      onError?.(error, change);
    },
    onSettled: () => {
      // This mutation still counts itself; refetch only when no other save is in flight.
      if (queryClient.isMutating({ mutationKey: updateSettingsMutationKey }) === 1) {
        return queryClient.invalidateQueries({ queryKey: settingsQueryKey });
      }
      return undefined;
    },
  });
}

/** Saves the minimum payout (USD) and shows the saved settings at once. */
export function useUpdateMinimumPayout() {
  const queryClient = useQueryClient();
  return useMutation<UserSettings, ApiError, number>({
    mutationKey: updateSettingsMutationKey,
    mutationFn: (minimumPayout) => updateSettings({ minimum_payout: minimumPayout }),
    onSuccess: (settings) => {
      queryClient.setQueryData(settingsQueryKey, settings);
    },
  });
}
