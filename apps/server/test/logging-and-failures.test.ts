import { apiPaths } from '@fabric/contract';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/connection.ts';
import { bearer, login, registerUser, TEST_PASSWORD } from './support/auth.ts';
import { describeWithPglite } from './support/databases.ts';

function collectLogs() {
  const lines: string[] = [];
  return {
    stream: { write: (line: string) => lines.push(line) },
    text: () => lines.join(''),
    entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

describeWithPglite('logging and failures', (database) => {
  describe('logs', () => {
    it('never contain passwords, tokens or the Authorization header', async () => {
      const logs = collectLogs();
      const app = await database.buildApp({
        logStream: logs.stream,
        config: { logLevel: 'trace' },
      });
      const { email, auth } = await registerUser(app, { password: 'a very secret password' });
      await login(app, { email, password: 'a very secret password' });
      await login(app, { email, password: 'a wrong secret password' });
      await app.inject({ url: apiPaths.auth.me, headers: bearer(auth.access_token) });
      await app.inject({
        method: 'POST',
        url: apiPaths.auth.refresh,
        payload: { refresh_token: auth.refresh_token },
      });
      await app.inject({
        url: `/auth/reset-password?token=secret-reset-token-value`,
        headers: { accept: 'text/html' },
      });

      const text = logs.text();
      expect(text.length).toBeGreaterThan(0);
      for (const secret of [
        'a very secret password',
        'a wrong secret password',
        auth.access_token,
        auth.refresh_token,
        'secret-reset-token-value',
      ]) {
        expect(text).not.toContain(secret);
      }
      expect(text).toContain('/auth/reset-password?token=[redacted]');
    });

    it('carry the reset link at info level when SMTP_URL is not set', async () => {
      const logs = collectLogs();
      // No mailer passed and no SMTP URL: the app writes emails to its log.
      const app = await database.buildAppWith({
        database: await database.connection(),
        mailer: undefined,
        logStream: logs.stream,
        config: { logLevel: 'info', smtpUrl: undefined },
      });
      const { email } = await registerUser(app);
      await app.inject({ method: 'POST', url: apiPaths.auth.forgotPassword, payload: { email } });
      await app.close();

      const entry = logs
        .entries()
        .find((line) => String(line.msg).includes('reset-password?token='));
      expect(entry).toMatchObject({
        level: 30,
        mail: { to: email, subject: 'Reset your Fabric password' },
      });
      expect(String(entry?.msg)).toMatch(
        /http:\/\/fabric\.test\/auth\/reset-password\?token=[\w-]{43}/,
      );
    });
  });

  describe('when the database fails', () => {
    it('answers 500 with a generic message and no internals, and the health check answers 503', async () => {
      const logs = collectLogs();
      // Nothing listens on port 1: every query fails to connect.
      const unreachable = await openDatabase({
        driver: 'postgres',
        url: 'postgres://fabric@127.0.0.1:1/fabric',
      });
      const app = await database.buildAppWith({
        database: unreachable,
        logStream: logs.stream,
        config: { logLevel: 'error' },
      });

      const response = await login(app, { email: 'someone@example.com', password: TEST_PASSWORD });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({
        message: 'Something went wrong on our side. Please try again.',
        code: 'INTERNAL',
      });

      const health = await app.inject({ url: apiPaths.health });
      expect(health.statusCode).toBe(503);
      expect(health.json()).toEqual({
        message: 'The database is not reachable',
        code: 'UNAVAILABLE',
      });

      // The cause is in the log for whoever runs the server, without the query's parameters.
      const failure = logs.entries().find((line) => line.msg === 'Request failed');
      expect(failure).toMatchObject({ level: 50, err: { message: expect.any(String) as unknown } });
      expect(failure).toHaveProperty('query');
      expect(logs.text()).not.toContain('someone@example.com');
      await app.close();
      await unreachable.close();
    });
  });
});
