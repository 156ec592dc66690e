import {
  apiPaths,
  messageResponseSchema,
  type ChangePasswordRequest,
  type MessageResponse,
} from '@fabric/contract';
import { useMutation } from '@tanstack/react-query';
import { api, type ApiError } from '@/lib/api-client';

/** The server signs out the account's other sessions; this browser's session stays valid. */
export function changePassword(body: ChangePasswordRequest): Promise<MessageResponse> {
  return api.put(apiPaths.auth.password, body, messageResponseSchema);
}

export function useChangePassword() {
  return useMutation<MessageResponse, ApiError, ChangePasswordRequest>({
    mutationFn: changePassword,
  });
}
