import { createHash, randomBytes } from 'node:crypto';

/** An unguessable token for refresh and password-reset links: 256 random bits, URL-safe. */
export function generateSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Only this digest is stored, so a database leak does not hand out live tokens. */
export function hashSecretToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
