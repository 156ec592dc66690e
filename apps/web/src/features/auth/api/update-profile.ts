import {
  apiPaths,
  messageResponseSchema,
  userSchema,
  type UpdateProfileRequest,
} from '@fabric/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type ApiError } from '@/lib/api-client';
import { currentUserQueryKey } from './get-current-user';

// The spec does not show this call's answer: the updated user is used when it comes back, and the
// current user is fetched again either way.
const updateProfileResponseSchema = userSchema.or(messageResponseSchema);

export function updateProfile(body: UpdateProfileRequest) {
  return api.put(apiPaths.auth.profile, body, updateProfileResponseSchema);
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation<Awaited<ReturnType<typeof updateProfile>>, ApiError, UpdateProfileRequest>({
    mutationFn: updateProfile,
    onSuccess: async (answer) => {
      if ('id' in answer) queryClient.setQueryData(currentUserQueryKey, answer);
      await queryClient.invalidateQueries({ queryKey: currentUserQueryKey });
    },
  });
}
