import {
  apiPaths,
  authResponseSchema,
  messageResponseSchema,
  type ChangePasswordRequest,
} from '@fabric/contract';
import { useMutation } from '@tanstack/react-query';
import { api, type ApiError } from '@/lib/api-client';
import { saveSession } from '@/lib/auth-storage';

// A password change revokes the account's refresh tokens; when the server answers with a fresh
// session for this browser, it is kept so the user stays signed in here.
const changePasswordResponseSchema = authResponseSchema.or(messageResponseSchema);

export function changePassword(body: ChangePasswordRequest) {
  return api.put(apiPaths.auth.password, body, changePasswordResponseSchema);
}

export function useChangePassword() {
  return useMutation<Awaited<ReturnType<typeof changePassword>>, ApiError, ChangePasswordRequest>({
    mutationFn: changePassword,
    onSuccess: (answer) => {
      if ('access_token' in answer) saveSession(answer);
    },
  });
}
