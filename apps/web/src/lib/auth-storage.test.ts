import { STORAGE_KEYS } from '@fabric/contract';
import { describe, expect, it, vi } from 'vitest';
import { authResponseFor, enterpriseUser } from '@/testing/fixtures';
import {
  clearAllStorage,
  getStoredRole,
  hasAccessToken,
  saveSession,
  setStoredRole,
  subscribeToSession,
} from './auth-storage';

describe('auth storage', () => {
  it('assumes node_provider when no role or an unknown role is stored', () => {
    expect(getStoredRole()).toBe('node_provider');
    localStorage.setItem(STORAGE_KEYS.userRole, 'admin');
    expect(getStoredRole()).toBe('node_provider');
    localStorage.setItem(STORAGE_KEYS.userRole, 'enterprise');
    expect(getStoredRole()).toBe('enterprise');
  });

  it('saves the five session values of a sign-in under the contract keys', () => {
    saveSession(authResponseFor(enterpriseUser, '7'));

    expect(Object.fromEntries(Object.entries(localStorage))).toEqual({
      fabric_access_token: 'access-7',
      fabric_refresh_token: 'refresh-7',
      fabric_user_id: enterpriseUser.id,
      fabric_user_email: enterpriseUser.email,
      fabric_user_role: 'enterprise',
    });
    expect(hasAccessToken()).toBe(true);
  });

  it('clears local and session storage entirely and tells subscribers', () => {
    saveSession(authResponseFor(enterpriseUser));
    localStorage.setItem('other', 'value');
    sessionStorage.setItem('other', 'value');
    const listener = vi.fn();
    const unsubscribe = subscribeToSession(listener);

    clearAllStorage();
    unsubscribe();

    expect(localStorage.length).toBe(0);
    expect(sessionStorage.length).toBe(0);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('tells subscribers when the role changes', () => {
    const listener = vi.fn();
    const unsubscribe = subscribeToSession(listener);

    setStoredRole('enterprise');
    unsubscribe();
    setStoredRole('node_provider');

    expect(listener).toHaveBeenCalledTimes(1);
  });
});
