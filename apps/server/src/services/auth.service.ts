import {
  ERROR_CODES,
  type AuthResponse,
  type Role,
  type loginRequestSchema,
  type registerRequestSchema,
} from '@fabric/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Clock } from '../lib/clock.ts';
import { conflict, HttpError, unauthenticated } from '../lib/http-errors.ts';
import { loggableError } from '../lib/loggable-error.ts';
import type { PasswordHasher } from '../lib/password-hasher.ts';
import type { Repositories } from '../repositories/index.ts';
import type { AccessTokenService } from './access-token.service.ts';
import type { LoginThrottle } from './login-throttle.service.ts';
import { SESSION_ENDED_MESSAGE, type SessionService } from './session.service.ts';
import { emptyToNull } from './user-view.ts';

export interface AuthenticatedUser {
  id: string;
  email: string;
  role: Role;
  /** The refresh-token family this access token was issued from. */
  sessionId: string;
  /** When the access token of this request stops being valid (event streams end then). */
  accessTokenExpiresAt: Date;
}

export type RegisterInput = z.output<typeof registerRequestSchema>;
export type LoginInput = z.output<typeof loginRequestSchema>;

export const DUPLICATE_EMAIL_MESSAGE = 'An account with this email already exists';
export const INVALID_CREDENTIALS_MESSAGE = 'Invalid email or password';

export function createAuthService(options: {
  repositories: Repositories;
  passwordHasher: PasswordHasher;
  sessions: SessionService;
  accessTokens: AccessTokenService;
  loginThrottle: LoginThrottle;
  clock: Clock;
  logger: FastifyBaseLogger;
}) {
  const { repositories, passwordHasher, sessions, accessTokens, loginThrottle, clock, logger } =
    options;

  return {
    async register(input: RegisterInput): Promise<AuthResponse> {
      // Checked first only to spare an argon2 hash; the unique constraint below is what decides.
      if (await repositories.users.findByEmail(input.email)) {
        throw conflict(DUPLICATE_EMAIL_MESSAGE, 'email');
      }
      const user = await repositories.users.insert({
        email: input.email,
        passwordHash: await passwordHasher.hash(input.password),
        role: input.role,
        name: emptyToNull(input.name),
        organizationName: emptyToNull(input.organization_name),
        domain: emptyToNull(input.domain),
        industry: emptyToNull(input.industry),
      });
      if (!user) throw conflict(DUPLICATE_EMAIL_MESSAGE, 'email');
      return sessions.start(user);
    },

    /** `address` is the client's (`clientAddress`): guesses are limited per account and address. */
    async login(input: LoginInput, address: string): Promise<AuthResponse> {
      const attempt = { email: input.email, address };
      await loginThrottle.reserveAttempt(attempt);
      const user = await repositories.users.findByEmail(input.email);
      if (!user) {
        await passwordHasher.verifyAgainstDummy(input.password);
        throw new HttpError(401, INVALID_CREDENTIALS_MESSAGE, ERROR_CODES.invalidCredentials);
      }
      if (!(await passwordHasher.verify(user.passwordHash, input.password))) {
        throw new HttpError(401, INVALID_CREDENTIALS_MESSAGE, ERROR_CODES.invalidCredentials);
      }
      await loginThrottle.forgiveAttempt(attempt);

      if (passwordHasher.needsRehash(user.passwordHash)) {
        // Hash parameters were raised since this password was set: upgrade while we have it.
        await repositories.users
          .updatePasswordHash(user.id, await passwordHasher.hash(input.password), clock())
          .catch((error: unknown) =>
            logger.warn(loggableError(error), 'Could not upgrade a password hash'),
          );
      }
      return sessions.start(user);
    },

    /**
     * Who a bearer access token belongs to. The account must still exist and the sign-in the
     * token was issued from must still be live, so signing out (or a password change) ends its
     * access tokens at once instead of when they expire.
     */
    async identify(accessToken: string): Promise<AuthenticatedUser> {
      const claims = await accessTokens.verify(accessToken);
      const found = await repositories.users.findWithSession(claims.userId, claims.sessionId);
      if (!found || found.user.deletedAt) {
        throw new HttpError(401, 'This account no longer exists.', ERROR_CODES.invalidToken);
      }
      if (!found.isSessionLive) {
        throw unauthenticated(SESSION_ENDED_MESSAGE, ERROR_CODES.invalidToken);
      }
      const { user } = found;
      // The role comes from the database, not the token, so a role change applies at once.
      return {
        id: user.id,
        email: user.email,
        role: user.role,
        sessionId: claims.sessionId,
        accessTokenExpiresAt: claims.expiresAt,
      };
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
