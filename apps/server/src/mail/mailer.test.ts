import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createLogMailer } from './mailer.ts';

describe('createLogMailer', () => {
  it('writes the whole email, link included, to the log at info level', async () => {
    const written: { fields: unknown; message: string }[] = [];
    const logger = {
      info: (fields: unknown, message: string) => written.push({ fields, message }),
    } as unknown as FastifyBaseLogger;
    await createLogMailer(logger).send({
      to: 'ada@example.com',
      subject: 'Reset your Fabric password',
      text: 'Open http://localhost:8080/auth/reset-password?token=abc',
    });
    expect(written).toHaveLength(1);
    expect(written[0]?.fields).toEqual({
      mail: { to: 'ada@example.com', subject: 'Reset your Fabric password' },
    });
    expect(written[0]?.message).toContain('http://localhost:8080/auth/reset-password?token=abc');
  });
});
