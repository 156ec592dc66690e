import { apiPaths, authResponseSchema, ERROR_CODES, userSchema } from '@fabric/contract';
import type { FastifyInstance } from 'fastify';
import { decodeJwt, SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { rateLimitCounters, refreshTokens } from '../src/db/schema.ts';
import { createRepositories } from '../src/repositories/index.ts';
import { createHousekeepingService } from '../src/services/housekeeping.service.ts';
import { bearer, login, registerUser, TEST_PASSWORD } from './support/auth.ts';
import { createManualClock } from './support/clock.ts';
import { describeEachDatabase, TEST_JWT_SECRET } from './support/databases.ts';

const SESSION_EXPIRED = {
  message: 'Your session has expired. Please sign in again.',
  code: ERROR_CODES.sessionExpired,
};
const INVALID_SESSION = {
  message: 'Your session is not valid. Please sign in again.',
  code: ERROR_CODES.invalidToken,
};
const SESSION_ENDED = {
  message: 'This session has ended. Please sign in again.',
  code: ERROR_CODES.invalidToken,
};

function signToken(
  claims: { sub: string; role?: string; sid?: string },
  options: {
    secret?: string;
    issuer?: string;
    audience?: string;
    issuedAt?: number;
    expiresAt?: number;
  } = {},
) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    role: claims.role ?? 'node_provider',
    sid: claims.sid ?? crypto.randomUUID(),
  })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(claims.sub)
    .setIssuer(options.issuer ?? 'fabric')
    .setAudience(options.audience ?? 'fabric-api')
    .setIssuedAt(options.issuedAt ?? now)
    .setExpirationTime(options.expiresAt ?? now + 600)
    .sign(new TextEncoder().encode(options.secret ?? TEST_JWT_SECRET));
}

describeEachDatabase('access and refresh tokens', (database) => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = await database.buildApp();
  });

  const me = (headers: Record<string, string> = {}) =>
    app.inject({ url: apiPaths.auth.me, headers });
  const refresh = (refreshToken: unknown) =>
    app.inject({
      method: 'POST',
      url: apiPaths.auth.refresh,
      payload: { refresh_token: refreshToken },
    });
  const logout = (refreshToken: unknown) =>
    app.inject({
      method: 'POST',
      url: apiPaths.auth.logout,
      payload: { refresh_token: refreshToken },
    });

  describe('GET /api/auth/me', () => {
    it('answers the signed-in user in the contract shape', async () => {
      const { email, auth } = await registerUser(app, {
        role: 'enterprise',
        organization_name: 'Acme',
      });
      const response = await me(bearer(auth.access_token));
      expect(response.statusCode).toBe(200);
      const user = userSchema.parse(response.json());
      expect(user).toMatchObject({
        id: auth.user_id,
        email,
        role: 'enterprise',
        organization_name: 'Acme',
      });
      expect(response.json()).not.toHaveProperty('password_hash');
    });

    it('answers 401 "Authentication required" without an Authorization header', async () => {
      const response = await me();
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        message: 'Authentication required',
        code: ERROR_CODES.unauthenticated,
      });
    });

    it('answers 401 for an Authorization header that is not a bearer token', async () => {
      const { auth } = await registerUser(app);
      for (const authorization of [
        `Basic ${auth.access_token}`,
        'Bearer',
        'Bearer a b',
        auth.access_token,
      ]) {
        const response = await me({ authorization });
        expect(response.statusCode).toBe(401);
        expect(response.json()).toMatchObject({ code: ERROR_CODES.unauthenticated });
      }
    });

    it('accepts the scheme in any letter case', async () => {
      const { auth } = await registerUser(app);
      expect((await me({ authorization: `bearer ${auth.access_token}` })).statusCode).toBe(200);
    });

    it('answers 401 for a tampered token: changed payload, changed signature, or garbage', async () => {
      const { auth } = await registerUser(app, { role: 'node_provider' });
      const [header = '', payload = '', signature = ''] = auth.access_token.split('.');
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<
        string,
        unknown
      >;
      const escalated = Buffer.from(JSON.stringify({ ...claims, role: 'enterprise' })).toString(
        'base64url',
      );
      const flipped = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
      const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${payload}.`;

      for (const token of [
        `${header}.${escalated}.${signature}`,
        `${header}.${payload}.${flipped}`,
        unsigned,
        'garbage',
      ]) {
        const response = await me(bearer(token));
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual(INVALID_SESSION);
      }
    });

    it('answers 401 for a token signed with another secret, issuer or audience', async () => {
      const { auth } = await registerUser(app);
      const tokens = await Promise.all([
        signToken({ sub: auth.user_id }, { secret: 'another-secret-that-is-also-long-enough' }),
        signToken({ sub: auth.user_id }, { issuer: 'someone-else' }),
        signToken({ sub: auth.user_id }, { audience: 'another-api' }),
      ]);
      for (const token of tokens) {
        expect((await me(bearer(token))).json()).toEqual(INVALID_SESSION);
      }
      // The same claims, properly signed, are accepted: the refusals above are about the signature.
      const sid = String(decodeJwt(auth.access_token)['sid']);
      expect((await me(bearer(await signToken({ sub: auth.user_id, sid })))).statusCode).toBe(200);
    });

    it('answers 401 "Your session has expired" for a token past its expiry', async () => {
      const { auth } = await registerUser(app);
      const now = Math.floor(Date.now() / 1000);
      const expired = await signToken(
        { sub: auth.user_id },
        { issuedAt: now - 1000, expiresAt: now - 10 },
      );
      const response = await me(bearer(expired));
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(SESSION_EXPIRED);
    });

    it('lets an access token expire after ACCESS_TOKEN_TTL_SECONDS', async () => {
      const clock = createManualClock();
      const shortLived = await database.buildApp({
        clock: clock.now,
        config: { accessTokenTtlSeconds: 1 },
      });
      const { auth } = await registerUser(shortLived);
      expect(auth.expires_in).toBe(1);
      const headers = bearer(auth.access_token);
      expect((await shortLived.inject({ url: apiPaths.auth.me, headers })).statusCode).toBe(200);

      clock.advanceBy(2_000);
      const response = await shortLived.inject({ url: apiPaths.auth.me, headers });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(SESSION_EXPIRED);
    });

    it('answers 401 for a valid token of a user that no longer exists', async () => {
      const { auth } = await registerUser(app);
      await createRepositories((await database.connection()).db).users.delete(auth.user_id);
      const response = await me(bearer(auth.access_token));
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ code: ERROR_CODES.invalidToken });
    });
  });

  describe('POST /api/auth/refresh', () => {
    it('answers a new token pair and retires the refresh token it was given', async () => {
      const { auth } = await registerUser(app);
      const response = await refresh(auth.refresh_token);
      expect(response.statusCode).toBe(200);
      const rotated = authResponseSchema.parse(response.json());
      expect(rotated.user_id).toBe(auth.user_id);
      expect(rotated.refresh_token).not.toBe(auth.refresh_token);
      expect((await me(bearer(rotated.access_token))).statusCode).toBe(200);

      const again = await refresh(rotated.refresh_token);
      expect(again.statusCode).toBe(200);
    });

    it('revokes the whole session when a retired refresh token is presented again', async () => {
      const { auth } = await registerUser(app);
      const first = authResponseSchema.parse((await refresh(auth.refresh_token)).json());
      const second = authResponseSchema.parse((await refresh(first.refresh_token)).json());

      const reuse = await refresh(auth.refresh_token);
      expect(reuse.statusCode).toBe(401);
      expect(reuse.json()).toEqual(SESSION_ENDED);
      // The thief's copy is dead, and so is the newest token of that session, access token included.
      expect((await refresh(second.refresh_token)).statusCode).toBe(401);
      expect((await me(bearer(second.access_token))).json()).toEqual(SESSION_ENDED);
    });

    it('does not touch the other sessions of the user when one is revoked for reuse', async () => {
      const { email, auth } = await registerUser(app);
      const otherSession = authResponseSchema.parse(
        (await login(app, { email, password: TEST_PASSWORD })).json(),
      );
      await refresh(auth.refresh_token);
      await refresh(auth.refresh_token);
      expect((await me(bearer(otherSession.access_token))).statusCode).toBe(200);
      expect((await refresh(otherSession.refresh_token)).statusCode).toBe(200);
    });

    it('lets only one of two simultaneous uses of one refresh token succeed', async () => {
      const { auth } = await registerUser(app);
      const statuses = (
        await Promise.all([refresh(auth.refresh_token), refresh(auth.refresh_token)])
      ).map((response) => response.statusCode);
      expect(statuses.sort()).toEqual([200, 401]);
    });

    it('answers 401 for an unknown refresh token and 400 for a missing one', async () => {
      expect((await refresh('not-a-token-we-issued')).json()).toEqual(SESSION_ENDED);
      const missing = await refresh('');
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toMatchObject({
        field: 'refresh_token',
        message: 'Refresh token is required',
      });
      const wrongType = await refresh(12345);
      expect(wrongType.statusCode).toBe(400);
    });

    it('refuses a refresh token after REFRESH_TOKEN_TTL_DAYS', async () => {
      const clock = createManualClock();
      const shortLived = await database.buildApp({
        clock: clock.now,
        config: { refreshTokenTtlDays: 1 },
      });
      const { auth } = await registerUser(shortLived);
      clock.advanceBy(24 * 60 * 60 * 1000 + 1000);
      const response = await shortLived.inject({
        method: 'POST',
        url: apiPaths.auth.refresh,
        payload: { refresh_token: auth.refresh_token },
      });
      expect(response.statusCode).toBe(401);
    });
  });

  describe('POST /api/auth/logout', () => {
    it('ends the session so its refresh token stops working, and answers 200 again after that', async () => {
      const { auth } = await registerUser(app);
      const rotated = authResponseSchema.parse((await refresh(auth.refresh_token)).json());

      const response = await logout(rotated.refresh_token);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ message: 'You have been signed out.' });
      expect((await refresh(rotated.refresh_token)).statusCode).toBe(401);
      // Its access tokens stop at once, not when they would have expired.
      for (const accessToken of [auth.access_token, rotated.access_token]) {
        const afterLogout = await me(bearer(accessToken));
        expect(afterLogout.statusCode).toBe(401);
        expect(afterLogout.json()).toEqual(SESSION_ENDED);
      }

      expect((await logout(rotated.refresh_token)).statusCode).toBe(200);
      expect((await logout(auth.refresh_token)).statusCode).toBe(200);
      expect((await logout('never-issued')).statusCode).toBe(200);
    });

    it('leaves the other sessions of the user signed in', async () => {
      const { email, auth } = await registerUser(app);
      const other = authResponseSchema.parse(
        (await login(app, { email, password: TEST_PASSWORD })).json(),
      );
      await logout(auth.refresh_token);
      expect((await refresh(other.refresh_token)).statusCode).toBe(200);
      expect((await me(bearer(other.access_token))).statusCode).toBe(200);
    });

    it('answers 400 without a refresh token', async () => {
      const response = await app.inject({ method: 'POST', url: apiPaths.auth.logout, payload: {} });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ field: 'refresh_token' });
    });
  });

  describe('housekeeping', () => {
    it('deletes ended rate-limit windows and tokens expired for over a day, and keeps live ones', async () => {
      const { db } = await database.connection();
      const repositories = createRepositories(db);
      const { auth } = await registerUser(app);
      const expired = await registerUser(app);
      const now = new Date();
      const later = new Date(now.getTime() + 2 * 24 * 60 * 60 * 1000);
      await repositories.rateLimits.hit('test:ended-window', now, 1000);
      await repositories.rateLimits.hit('test:live-window', later, 60_000);
      // Pretend the second user's refresh token ran out long ago.
      await db
        .update(refreshTokens)
        .set({ expiresAt: new Date(now.getTime() - 3 * 24 * 60 * 60 * 1000) })
        .where(eq(refreshTokens.userId, expired.auth.user_id));

      await createHousekeepingService({ repositories, clock: () => later }).removeExpiredRecords();

      const keys = (await db.select({ key: rateLimitCounters.key }).from(rateLimitCounters)).map(
        (row) => row.key,
      );
      expect(keys).not.toContain('test:ended-window');
      expect(keys).toContain('test:live-window');
      expect(
        await db.select().from(refreshTokens).where(eq(refreshTokens.userId, expired.auth.user_id)),
      ).toHaveLength(0);
      // The first user's token expires in 30 days: still there and still usable.
      expect((await refresh(auth.refresh_token)).statusCode).toBe(200);
    });
  });
});
