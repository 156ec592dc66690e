import type { Role } from '@fabric/contract';
import { useSyncExternalStore } from 'react';
import {
  getStoredEmail,
  getStoredRole,
  hasAccessToken,
  subscribeToSession,
} from '@/lib/auth-storage';

// React views of the stored session; they re-render on sign-in, sign-out and role changes.

export function useHasAccessToken(): boolean {
  return useSyncExternalStore(subscribeToSession, hasAccessToken);
}

export function useStoredRole(): Role {
  return useSyncExternalStore(subscribeToSession, getStoredRole);
}

export function useStoredEmail(): string | null {
  return useSyncExternalStore(subscribeToSession, getStoredEmail);
}
