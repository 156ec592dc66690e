import { STORAGE_KEYS, type AuthResponse, type Role, type User } from '@fabric/contract';

export const providerUser: User = {
  id: '0b7f6f0e-6a0b-4b8e-9d55-3f1f8c1e2a01',
  email: 'ada@example.com',
  role: 'node_provider',
  name: 'Ada Lovelace',
  organization_name: null,
  domain: null,
  industry: null,
  created_at: '2026-11-01T10:00:00.000Z',
};

export const enterpriseUser: User = {
  id: '5d1c2a9e-1f3b-4c7d-8e9f-0a1b2c3d4e5f',
  email: 'ops@acme.test',
  role: 'enterprise',
  name: null,
  organization_name: 'Acme Research',
  domain: 'acme.test',
  industry: 'Healthcare',
  created_at: '2026-11-01T10:00:00.000Z',
};

export function authResponseFor(user: User, suffix = '1'): AuthResponse {
  return {
    access_token: `access-${suffix}`,
    refresh_token: `refresh-${suffix}`,
    token_type: 'Bearer',
    expires_in: 900,
    user_id: user.id,
    email: user.email,
    role: user.role,
  };
}

/** Puts a signed-in session in localStorage, as sign-in would. */
export function storeSession({
  role = 'node_provider',
  email = 'ada@example.com',
  accessToken = 'access-1',
  refreshToken = 'refresh-1',
}: { role?: Role; email?: string; accessToken?: string; refreshToken?: string } = {}): void {
  localStorage.setItem(STORAGE_KEYS.accessToken, accessToken);
  localStorage.setItem(STORAGE_KEYS.refreshToken, refreshToken);
  localStorage.setItem(STORAGE_KEYS.userId, providerUser.id);
  localStorage.setItem(STORAGE_KEYS.userEmail, email);
  localStorage.setItem(STORAGE_KEYS.userRole, role);
}
