import {
  apiPaths,
  authResponseSchema,
  type AuthResponse,
  type RegisterRequest,
} from '@fabric/contract';
import { useMutation, type UseMutationOptions } from '@tanstack/react-query';
import { api, type ApiError } from '@/lib/api-client';
import { saveSession } from '@/lib/auth-storage';

/** Registers with the profile fields of the chosen role, so the server keeps them. */
export function signUp(account: RegisterRequest): Promise<AuthResponse> {
  return api.post(apiPaths.auth.register, account, authResponseSchema);
}

/** Creates the account and stores the session; the caller decides where to go next. */
export function useSignUp(
  options: Omit<UseMutationOptions<AuthResponse, ApiError, RegisterRequest>, 'mutationFn'> = {},
) {
  return useMutation({
    ...options,
    mutationFn: signUp,
    onSuccess: (auth, ...rest) => {
      saveSession(auth);
      return options.onSuccess?.(auth, ...rest);
    },
  });
}
