import { ERROR_CODES } from '@fabric/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../lib/http-errors.ts';
import type { AuthenticatedUser } from '../services/auth.service.ts';
import { requireRole } from './auth.ts';

function runGuard(guard: ReturnType<typeof requireRole>, user: AuthenticatedUser | null) {
  let result: Error | undefined;
  guard({ user } as FastifyRequest, {} as FastifyReply, (error) => {
    result = error;
  });
  return result;
}

const user = (role: AuthenticatedUser['role']): AuthenticatedUser => ({
  id: '00000000-0000-4000-8000-000000000000',
  email: 'someone@example.com',
  role,
  sessionId: '00000000-0000-4000-8000-000000000001',
  accessTokenExpiresAt: new Date('2026-11-22T12:00:00.000Z'),
});

describe('requireRole', () => {
  it('lets a user with an allowed role through', () => {
    expect(runGuard(requireRole('enterprise'), user('enterprise'))).toBeUndefined();
    expect(
      runGuard(requireRole('enterprise', 'node_provider'), user('node_provider')),
    ).toBeUndefined();
  });

  it('answers 403 with a message naming the role for anyone else', () => {
    const error = runGuard(requireRole('enterprise'), user('node_provider'));
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({
      statusCode: 403,
      code: ERROR_CODES.forbidden,
      message: 'This is available to enterprise accounts only.',
    });
    expect(runGuard(requireRole('node_provider'), user('enterprise'))?.message).toBe(
      'This is available to node provider accounts only.',
    );
  });

  it('answers 401 when no user was authenticated', () => {
    expect(runGuard(requireRole('enterprise'), null)).toMatchObject({ statusCode: 401 });
  });
});
