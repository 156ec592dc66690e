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

// Guesses at one account's password are limited per account and address: login-throttle.test.ts.
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
});
