import { randomUUID } from 'node:crypto';
import { ERROR_CODES, type AuthResponse } from '@fabric/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { UserRow } from '../db/schema.ts';
import { addSeconds, type Clock } from '../lib/clock.ts';
import { unauthenticated } from '../lib/http-errors.ts';
import { generateSecretToken, hashSecretToken } from '../lib/secret-token.ts';
import type { Repositories } from '../repositories/index.ts';
import type { AccessTokenService } from './access-token.service.ts';

const SECONDS_PER_DAY = 24 * 60 * 60;

/** A sign-in that was ended: signed out, revoked for refresh-token reuse, or by a password change. */
export const SESSION_ENDED_MESSAGE = 'This session has ended. Please sign in again.';

/**
 * A session is one sign-in: a family of refresh tokens of which only the newest works, plus
 * short-lived access tokens issued from it.
 */
export function createSessionService(options: {
  repositories: Repositories;
  accessTokens: AccessTokenService;
  refreshTokenTtlDays: number;
  clock: Clock;
  logger: FastifyBaseLogger;
}) {
  const { repositories, accessTokens, clock, logger } = options;
  const refreshTokenTtlSeconds = options.refreshTokenTtlDays * SECONDS_PER_DAY;

  async function respond(
    user: UserRow,
    sessionId: string,
    refreshToken: string,
  ): Promise<AuthResponse> {
    return {
      access_token: await accessTokens.issue({ userId: user.id, role: user.role, sessionId }),
      refresh_token: refreshToken,
      token_type: 'Bearer',
      expires_in: accessTokens.ttlSeconds,
      user_id: user.id,
      email: user.email,
      role: user.role,
    };
  }

  return {
    async start(user: UserRow): Promise<AuthResponse> {
      const familyId = randomUUID();
      const refreshToken = generateSecretToken();
      await repositories.refreshTokens.insert({
        id: randomUUID(),
        userId: user.id,
        familyId,
        tokenHash: hashSecretToken(refreshToken),
        expiresAt: addSeconds(clock(), refreshTokenTtlSeconds),
      });
      return respond(user, familyId, refreshToken);
    },

    /** Trades a refresh token for a new pair; the presented token is retired for good. */
    async refresh(refreshToken: string): Promise<AuthResponse> {
      const now = clock();
      const successorToken = generateSecretToken();
      const result = await repositories.refreshTokens.rotate(
        hashSecretToken(refreshToken),
        {
          id: randomUUID(),
          tokenHash: hashSecretToken(successorToken),
          expiresAt: addSeconds(now, refreshTokenTtlSeconds),
        },
        now,
      );
      if (result.outcome === 'reused') {
        logger.warn(
          { userId: result.userId, sessionId: result.familyId },
          'A retired refresh token was presented again; the whole session was revoked',
        );
      }
      if (result.outcome !== 'rotated') {
        throw unauthenticated(SESSION_ENDED_MESSAGE, ERROR_CODES.invalidToken);
      }
      const user = await repositories.users.findById(result.userId);
      if (!user) throw unauthenticated('This account no longer exists.', ERROR_CODES.invalidToken);
      return respond(user, result.familyId, successorToken);
    },

    async end(refreshToken: string): Promise<void> {
      await repositories.refreshTokens.revokeFamilyOf(hashSecretToken(refreshToken), clock());
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
