import { apiPaths, ERROR_CODES } from '@fabric/contract';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  login,
  registerUser,
  TEST_PASSWORD,
  uniqueEmail,
  uniqueIp,
} from './support/auth.ts';
import { createManualClock } from './support/clock.ts';
import { describeEachDatabase } from './support/databases.ts';
import { createRecordingMailer } from './support/mailer.ts';

describeEachDatabase('rate limits', (database) => {
  describe('per IP address, on login and register together', () => {
    const clock = createManualClock();
    let app: FastifyInstance;

    beforeAll(async () => {
      app = await database.buildApp({ clock: clock.now, config: { authRateLimitPerIp: 3 } });
    });

    const register = (remoteAddress: string) =>
      app.inject({
        method: 'POST',
        url: apiPaths.auth.register,
        payload: { email: uniqueEmail(), password: TEST_PASSWORD, role: 'enterprise' },
        remoteAddress,
      });

    it('answers 429 with Retry-After once an address made AUTH_RATE_LIMIT_PER_IP calls in a minute', async () => {
      const ip = uniqueIp();
      expect((await register(ip)).statusCode).toBe(201);
      expect((await register(ip)).statusCode).toBe(201);
      expect((await login(app, { email: uniqueEmail(), password: 'x' }, ip)).statusCode).toBe(401);

      const limited = await login(app, { email: uniqueEmail(), password: 'x' }, ip);
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual({
        message: 'Too many requests from your network. Please try again in 1 minute.',
        code: ERROR_CODES.rateLimited,
      });
      expect(Number(limited.headers['retry-after'])).toBe(60);
      expect((await register(ip)).statusCode).toBe(429);
    });

    it('counts bad requests too, and leaves other addresses alone', async () => {
      const ip = uniqueIp();
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const response = await app.inject({
          method: 'POST',
          url: apiPaths.auth.login,
          payload: '{bad',
          headers: { 'content-type': 'application/json' },
          remoteAddress: ip,
        });
        expect(response.statusCode).toBe(400);
      }
      expect((await register(ip)).statusCode).toBe(429);
      expect((await register(uniqueIp())).statusCode).toBe(201);
    });

    it('lets the address in again once the minute has passed', async () => {
      const ip = uniqueIp();
      for (let attempt = 0; attempt < 3; attempt += 1) await register(ip);
      expect((await register(ip)).statusCode).toBe(429);
      clock.advanceBy(61_000);
      expect((await register(ip)).statusCode).toBe(201);
    });

    it('does not limit calls other than login and register', async () => {
      const ip = uniqueIp();
      const { auth } = await registerUser(app);
      for (let attempt = 0; attempt < 5; attempt += 1) {
        const me = await app.inject({
          url: apiPaths.auth.me,
          headers: bearer(auth.access_token),
          remoteAddress: ip,
        });
        expect(me.statusCode).toBe(200);
      }
    });
  });

  describe('per account, on failed logins', () => {
    const clock = createManualClock();
    let app: FastifyInstance;
    let otherProcess: FastifyInstance;

    beforeAll(async () => {
      const config = { authRateLimitPerAccount: 3 };
      app = await database.buildApp({ clock: clock.now, config });
      // A second app on the same database stands for a second server process.
      otherProcess = await database.buildApp({ clock: clock.now, config });
    });

    async function failLogins(email: string, count: number, server = app) {
      for (let attempt = 0; attempt < count; attempt += 1) {
        expect((await login(server, { email, password: 'wrong password' })).statusCode).toBe(401);
      }
    }

    it('answers 429 even for the right password after AUTH_RATE_LIMIT_PER_ACCOUNT failures, from any address', async () => {
      const { email } = await registerUser(app);
      await failLogins(email, 3);
      const limited = await login(app, { email, password: TEST_PASSWORD });
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual({
        message:
          'Too many failed sign-in attempts for this account. Please try again in 15 minutes.',
        code: ERROR_CODES.rateLimited,
      });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(14 * 60);
      expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    });

    it('lets the right password in again once the 15 minutes have passed', async () => {
      const { email } = await registerUser(app);
      await failLogins(email, 3);
      expect((await login(app, { email, password: TEST_PASSWORD })).statusCode).toBe(429);
      clock.advanceBy(15 * 60 * 1000 + 1000);
      expect((await login(app, { email, password: TEST_PASSWORD })).statusCode).toBe(200);
    });

    it('shares the count between server processes through the database', async () => {
      const { email } = await registerUser(app);
      await failLogins(email, 2, app);
      await failLogins(email, 1, otherProcess);
      expect((await login(otherProcess, { email, password: TEST_PASSWORD })).statusCode).toBe(429);
      expect((await login(app, { email, password: TEST_PASSWORD })).statusCode).toBe(429);
    });

    it('counts simultaneous guesses exactly', async () => {
      const { email } = await registerUser(app);
      const statuses = (
        await Promise.all(
          Array.from({ length: 8 }, () => login(app, { email, password: 'parallel guess' })),
        )
      ).map((response) => response.statusCode);
      expect(statuses.filter((status) => status === 401)).toHaveLength(3);
      expect(statuses.filter((status) => status === 429)).toHaveLength(5);
    });

    it('does not count successful logins', async () => {
      const { email } = await registerUser(app);
      for (let attempt = 0; attempt < 5; attempt += 1) {
        expect((await login(app, { email, password: TEST_PASSWORD })).statusCode).toBe(200);
      }
    });

    it('limits an email without an account the same way, so a 429 reveals nothing', async () => {
      const email = uniqueEmail('nobody');
      await failLogins(email, 3);
      expect((await login(app, { email, password: TEST_PASSWORD })).statusCode).toBe(429);
    });

    it('leaves other accounts alone', async () => {
      const locked = await registerUser(app);
      const other = await registerUser(app);
      await failLogins(locked.email, 3);
      expect((await login(app, { email: other.email, password: TEST_PASSWORD })).statusCode).toBe(
        200,
      );
    });

    it('counts wrong current passwords of a password change against the same limit', async () => {
      const { email, auth } = await registerUser(app);
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const response = await app.inject({
          method: 'PUT',
          url: apiPaths.auth.password,
          headers: bearer(auth.access_token),
          payload: { current_password: 'guess number x', new_password: 'a new password' },
        });
        expect(response.statusCode).toBe(400);
      }
      expect((await login(app, { email, password: TEST_PASSWORD })).statusCode).toBe(429);
    });

    it('lifts the lockout when the owner resets the password by email', async () => {
      const { email } = await registerUser(app);
      await failLogins(email, 3);
      expect((await login(app, { email, password: TEST_PASSWORD })).statusCode).toBe(429);

      const mailer = createRecordingMailer();
      const withMailer = await database.buildApp({
        clock: clock.now,
        mailer,
        config: { authRateLimitPerAccount: 3 },
      });
      await withMailer.inject({
        method: 'POST',
        url: apiPaths.auth.forgotPassword,
        payload: { email },
      });
      const reset = await withMailer.inject({
        method: 'POST',
        url: apiPaths.auth.resetPassword,
        payload: { token: mailer.lastResetToken(email), new_password: 'recovered password' },
      });
      expect(reset.statusCode).toBe(200);
      expect((await login(app, { email, password: 'recovered password' })).statusCode).toBe(200);
    });
  });
});
