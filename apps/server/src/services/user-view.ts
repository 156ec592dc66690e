import type { User } from '@fabric/contract';
import type { UserRow } from '../db/schema.ts';

/** The contract's `User` as the API shows it; the password hash never leaves the server. */
export function toUserResponse(user: UserRow): User {
  return {
    id: user.id,
    email: user.email,
    role: user.role,
    name: user.name,
    organization_name: user.organizationName,
    domain: user.domain,
    industry: user.industry,
    created_at: user.createdAt.toISOString(),
  };
}

/** Optional text fields: an empty string clears the field rather than storing ''. */
export function emptyToNull(value: string | undefined): string | null {
  return value === undefined || value === '' ? null : value;
}
