import { apiPaths, messageResponseSchema } from '@fabric/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { api } from '@/lib/api-client';
import { clearAllStorage, getRefreshToken } from '@/lib/auth-storage';

/** Revokes the refresh token on the server. */
export function signOut(refreshToken: string) {
  return api.post(apiPaths.auth.logout, { refresh_token: refreshToken }, messageResponseSchema);
}

/**
 * Signing out never waits for the server: the revocation is sent best effort, and the browser
 * forgets the session (all storage, all cached data) at once.
 */
export function useSignOut(): () => void {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(() => {
    const refreshToken = getRefreshToken();
    if (refreshToken) {
      signOut(refreshToken).catch(() => {
        // The token expires on its own; nothing for the user to do.
      });
    }
    clearAllStorage();
    queryClient.clear();
    void navigate(paths.auth.signIn.href(), { replace: true });
  }, [queryClient, navigate]);
}
