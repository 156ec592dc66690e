import {
  apiPaths,
  authResponseSchema,
  type AuthResponse,
  type LoginRequest,
} from '@fabric/contract';
import { useMutation, type UseMutationOptions } from '@tanstack/react-query';
import { api, type ApiError } from '@/lib/api-client';
import { saveSession } from '@/lib/auth-storage';

export function signIn(credentials: LoginRequest): Promise<AuthResponse> {
  return api.post(apiPaths.auth.login, credentials, authResponseSchema);
}

/** Signs in and stores the session; the caller decides where to go next. */
export function useSignIn(
  options: Omit<UseMutationOptions<AuthResponse, ApiError, LoginRequest>, 'mutationFn'> = {},
) {
  return useMutation({
    ...options,
    mutationFn: signIn,
    onSuccess: (auth, ...rest) => {
      saveSession(auth);
      return options.onSuccess?.(auth, ...rest);
    },
  });
}
