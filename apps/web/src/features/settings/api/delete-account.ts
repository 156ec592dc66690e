import { apiPaths, messageResponseSchema, type DeleteAccountRequest } from '@fabric/contract';
import { useMutation } from '@tanstack/react-query';
import { apiRequest, type ApiError } from '@/lib/api-client';

/** Closes the caller's account; answers with the server's closing message. */
export async function deleteAccount(body: DeleteAccountRequest): Promise<string> {
  const { message } = await apiRequest(apiPaths.auth.account, {
    method: 'DELETE',
    body,
    schema: messageResponseSchema,
  });
  return message;
}

export function useDeleteAccount() {
  return useMutation<string, ApiError, DeleteAccountRequest>({ mutationFn: deleteAccount });
}
