import {
  apiPaths,
  messageResponseSchema,
  type ForgotPasswordRequest,
  type MessageResponse,
} from '@fabric/contract';
import { useMutation } from '@tanstack/react-query';
import { api, type ApiError } from '@/lib/api-client';

export function requestPasswordReset(body: ForgotPasswordRequest): Promise<MessageResponse> {
  return api.post(apiPaths.auth.forgotPassword, body, messageResponseSchema);
}

export function useRequestPasswordReset() {
  return useMutation<MessageResponse, ApiError, ForgotPasswordRequest>({
    mutationFn: requestPasswordReset,
  });
}
