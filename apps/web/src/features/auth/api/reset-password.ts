import {
  apiPaths,
  messageResponseSchema,
  type MessageResponse,
  type ResetPasswordRequest,
} from '@fabric/contract';
import { useMutation } from '@tanstack/react-query';
import { api, type ApiError } from '@/lib/api-client';

export function resetPassword(body: ResetPasswordRequest): Promise<MessageResponse> {
  return api.post(apiPaths.auth.resetPassword, body, messageResponseSchema);
}

export function useResetPassword() {
  return useMutation<MessageResponse, ApiError, ResetPasswordRequest>({
    mutationFn: resetPassword,
  });
}
