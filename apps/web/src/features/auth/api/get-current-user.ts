import { apiPaths, userSchema, type User } from '@fabric/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { getStoredRole, setStoredRole } from '@/lib/auth-storage';

export async function getCurrentUser({ signal }: { signal?: AbortSignal } = {}): Promise<User> {
  const user = await api.get(apiPaths.auth.me, userSchema, { signal });
  // The stored role decides nav and dashboard; the server's word on it wins.
  if (user.role !== getStoredRole()) setStoredRole(user.role);
  return user;
}

export const currentUserQueryKey = ['auth', 'me'] as const;

export function currentUserQueryOptions() {
  return queryOptions({
    queryKey: currentUserQueryKey,
    queryFn: ({ signal }) => getCurrentUser({ signal }),
    staleTime: 5 * 60_000,
  });
}

export function useCurrentUser() {
  return useQuery(currentUserQueryOptions());
}
