import { DEFAULT_ROLE, STORAGE_KEYS, type AuthResponse, type Role } from '@fabric/contract';

// The session lives in localStorage under the contract's five keys. Writes notify subscribers so
// React (through useSyncExternalStore) follows sign-in, sign-out and role changes at once, also
// when they happen in another tab.

const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

function onStorageEvent(event: StorageEvent): void {
  if (event.key === null || Object.values<string>(STORAGE_KEYS).includes(event.key)) notify();
}

/** Subscribes to session changes; returns the unsubscribe function. */
export function subscribeToSession(listener: () => void): () => void {
  listeners.add(listener);
  if (listeners.size === 1) window.addEventListener('storage', onStorageEvent);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) window.removeEventListener('storage', onStorageEvent);
  };
}

export function getAccessToken(): string | null {
  return localStorage.getItem(STORAGE_KEYS.accessToken);
}

export function hasAccessToken(): boolean {
  return Boolean(getAccessToken());
}

export function getRefreshToken(): string | null {
  return localStorage.getItem(STORAGE_KEYS.refreshToken);
}

export function getStoredUserId(): string | null {
  return localStorage.getItem(STORAGE_KEYS.userId);
}

export function getStoredEmail(): string | null {
  return localStorage.getItem(STORAGE_KEYS.userEmail);
}

/** node_provider unless enterprise is stored (spec: default node_provider, other value enterprise). */
export function getStoredRole(): Role {
  return localStorage.getItem(STORAGE_KEYS.userRole) === 'enterprise' ? 'enterprise' : DEFAULT_ROLE;
}

export function setStoredRole(role: Role): void {
  localStorage.setItem(STORAGE_KEYS.userRole, role);
  notify();
}

/** Stores what sign-in, sign-up and token refresh answer with. */
export function saveSession(auth: AuthResponse): void {
  localStorage.setItem(STORAGE_KEYS.accessToken, auth.access_token);
  localStorage.setItem(STORAGE_KEYS.refreshToken, auth.refresh_token);
  localStorage.setItem(STORAGE_KEYS.userId, auth.user_id);
  localStorage.setItem(STORAGE_KEYS.userEmail, auth.email);
  localStorage.setItem(STORAGE_KEYS.userRole, auth.role);
  notify();
}

/** Sign-out forgets everything the app kept in the browser, not only the session keys. */
export function clearAllStorage(): void {
  localStorage.clear();
  sessionStorage.clear();
  notify();
}
