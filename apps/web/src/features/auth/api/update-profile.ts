import { apiPaths, userSchema, type UpdateProfileRequest, type User } from '@fabric/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type ApiError } from '@/lib/api-client';
import { currentUserQueryKey } from './get-current-user';

/** Answers with the updated user. */
export function updateProfile(body: UpdateProfileRequest): Promise<User> {
  return api.put(apiPaths.auth.profile, body, userSchema);
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation<User, ApiError, UpdateProfileRequest>({
    mutationFn: updateProfile,
    onSuccess: (user) => {
      queryClient.setQueryData(currentUserQueryKey, user);
    },
  });
}
