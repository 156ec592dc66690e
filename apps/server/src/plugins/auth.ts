import type { Role } from '@fabric/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { forbidden, unauthenticated } from '../lib/http-errors.ts';
import type { AuthenticatedUser, AuthService } from '../services/auth.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Hook for routes that need a signed-in user (`onRequest: [app.authenticate]`): checks the
     * `Authorization: Bearer <access token>` header and sets `request.user`, or answers 401.
     * It runs before the body is parsed, so anonymous callers learn nothing about the body rules.
     */
    authenticate: (request: FastifyRequest) => Promise<void>;
  }
  interface FastifyRequest {
    user: AuthenticatedUser | null;
  }
}

const BEARER_PATTERN = /^Bearer\s+(\S+)\s*$/i;

export function registerAuthentication(app: FastifyInstance, auth: AuthService): void {
  app.decorateRequest('user', null);
  app.decorate('authenticate', async (request: FastifyRequest) => {
    const header = request.headers.authorization;
    if (header === undefined || header.trim() === '') throw unauthenticated();
    const match = BEARER_PATTERN.exec(header);
    if (!match?.[1]) {
      throw unauthenticated('The Authorization header must be "Bearer <access token>"');
    }
    request.user = await auth.identify(match[1]);
  });
}

/** The signed-in user of a route that uses `app.authenticate`. */
export function currentUser(request: FastifyRequest): AuthenticatedUser {
  if (!request.user) throw unauthenticated();
  return request.user;
}

const ROLE_NAMES: Record<Role, string> = {
  node_provider: 'node provider',
  enterprise: 'enterprise',
};

/**
 * Hook allowing only the given roles; put it after `app.authenticate`:
 * `onRequest: [app.authenticate, requireRole('enterprise')]`.
 */
export function requireRole(...roles: [Role, ...Role[]]) {
  const allowed = roles.map((role) => ROLE_NAMES[role]).join(' or ');
  return (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void => {
    if (!request.user) {
      done(unauthenticated());
    } else if (!roles.includes(request.user.role)) {
      done(forbidden(`This is available to ${allowed} accounts only.`));
    } else {
      done();
    }
  };
}
