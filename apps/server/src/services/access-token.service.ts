import { ERROR_CODES, roleSchema, type Role } from '@fabric/contract';
import { errors, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import type { Clock } from '../lib/clock.ts';
import { unauthenticated } from '../lib/http-errors.ts';

export const ACCESS_TOKEN_ISSUER = 'fabric';
export const ACCESS_TOKEN_AUDIENCE = 'fabric-api';

export interface AccessTokenClaims {
  userId: string;
  role: Role;
  /** The refresh-token family of the sign-in, so "sign out other sessions" can keep this one. */
  sessionId: string;
}

const payloadSchema = z.object({
  sub: z.uuid(),
  role: roleSchema,
  sid: z.uuid(),
  exp: z.number(),
});

export const SESSION_EXPIRED_MESSAGE = 'Your session has expired. Please sign in again.';
export const INVALID_SESSION_MESSAGE = 'Your session is not valid. Please sign in again.';

export function createAccessTokenService(options: {
  secret: string;
  ttlSeconds: number;
  clock: Clock;
}) {
  const key = new TextEncoder().encode(options.secret);

  return {
    ttlSeconds: options.ttlSeconds,

    async issue(claims: AccessTokenClaims): Promise<string> {
      const issuedAt = Math.floor(options.clock().getTime() / 1000);
      return new SignJWT({ role: claims.role, sid: claims.sessionId })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(claims.userId)
        .setIssuer(ACCESS_TOKEN_ISSUER)
        .setAudience(ACCESS_TOKEN_AUDIENCE)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + options.ttlSeconds)
        .sign(key);
    },

    /** Throws a 401 HttpError telling an expired token from any other bad one. */
    async verify(token: string): Promise<AccessTokenClaims & { expiresAt: Date }> {
      let payload: unknown;
      try {
        ({ payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          issuer: ACCESS_TOKEN_ISSUER,
          audience: ACCESS_TOKEN_AUDIENCE,
          currentDate: options.clock(),
          requiredClaims: ['sub', 'exp', 'iat'],
        }));
      } catch (error) {
        if (error instanceof errors.JWTExpired) {
          throw unauthenticated(SESSION_EXPIRED_MESSAGE, ERROR_CODES.sessionExpired);
        }
        throw unauthenticated(INVALID_SESSION_MESSAGE, ERROR_CODES.invalidToken);
      }
      const parsed = payloadSchema.safeParse(payload);
      if (!parsed.success) throw unauthenticated(INVALID_SESSION_MESSAGE, ERROR_CODES.invalidToken);
      return {
        userId: parsed.data.sub,
        role: parsed.data.role,
        sessionId: parsed.data.sid,
        expiresAt: new Date(parsed.data.exp * 1000),
      };
    },
  };
}

export type AccessTokenService = ReturnType<typeof createAccessTokenService>;
