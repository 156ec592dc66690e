import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createLogMailer } from './mailer.ts';

function recordingLogger() {
  const written: { level: 'info' | 'warn'; fields: unknown; message: string }[] = [];
  const write =
    (level: 'info' | 'warn') =>
    (...args: [unknown, string?]) => {
      const [fields, message] = args.length === 1 ? [undefined, args[0]] : args;
      written.push({ level, fields, message: String(message) });
    };
  const logger = { info: write('info'), warn: write('warn') } as unknown as FastifyBaseLogger;
  return { logger, written };
}

const resetEmail = {
  to: 'ada@example.com',
  subject: 'Reset your Fabric password',
  text: 'Open http://localhost:8080/auth/reset-password?token=abc',
};

describe('createLogMailer', () => {
  it('warns once, when created, that emails and their reset links go to the log', () => {
    const { logger, written } = recordingLogger();
    createLogMailer(logger);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({ level: 'warn' });
    expect(written[0]?.message).toMatch(/^SMTP_URL is not set: .*reset links.*local use/);
  });

  it('writes the whole email, link included, to the log at info level', async () => {
    const { logger, written } = recordingLogger();
    await createLogMailer(logger).send(resetEmail);
    expect(written).toHaveLength(2);
    expect(written[1]?.level).toBe('info');
    expect(written[1]?.fields).toEqual({
      mail: { to: 'ada@example.com', subject: 'Reset your Fabric password' },
    });
    expect(written[1]?.message).toContain('http://localhost:8080/auth/reset-password?token=abc');
  });

  it('in production, logs only that an email was not sent: never its text or link', async () => {
    const { logger, written } = recordingLogger();
    await createLogMailer(logger, { isProduction: true }).send(resetEmail);
    expect(written.map((entry) => entry.level)).toEqual(['warn', 'warn']);
    expect(written[0]?.message).toMatch(/NODE_ENV=production.*dropped/);
    expect(written[1]).toEqual({
      level: 'warn',
      fields: { mail: { to: 'ada@example.com', subject: 'Reset your Fabric password' } },
      message: 'SMTP_URL is not set, so this email was not sent',
    });
    expect(JSON.stringify(written)).not.toContain('token=');
  });
});
