import { randomBytes, randomUUID } from 'node:crypto';
import {
  apiPaths,
  authResponseSchema,
  type AuthResponse,
  type RegisterRequest,
} from '@fabric/contract';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';

export const TEST_PASSWORD = 'correct horse battery';

export function uniqueEmail(label = 'user'): string {
  return `${label.toLowerCase()}-${randomUUID().slice(0, 8)}@example.com`;
}

/** A random private address, so per-IP counts of one test never touch another's. */
export function uniqueIp(): string {
  const [a = 0, b = 0, c = 1] = randomBytes(3);
  return `10.${a}.${b}.${Math.max(1, c)}`;
}

export function bearer(accessToken: string): { authorization: string } {
  return { authorization: `Bearer ${accessToken}` };
}

export interface RegisteredUser {
  email: string;
  password: string;
  auth: AuthResponse;
}

export async function registerUser(
  app: FastifyInstance,
  fields: Partial<RegisterRequest> = {},
): Promise<RegisteredUser> {
  const body = {
    email: uniqueEmail(),
    password: TEST_PASSWORD,
    role: 'node_provider' as const,
    ...fields,
  };
  const response = await app.inject({
    method: 'POST',
    url: apiPaths.auth.register,
    payload: body,
    remoteAddress: uniqueIp(),
  });
  expect(response.statusCode, response.body).toBe(201);
  return {
    email: body.email,
    password: body.password,
    auth: authResponseSchema.parse(response.json()),
  };
}

export function login(
  app: FastifyInstance,
  credentials: { email: string; password: string },
  remoteAddress = uniqueIp(),
) {
  return app.inject({
    method: 'POST',
    url: apiPaths.auth.login,
    payload: credentials,
    remoteAddress,
  });
}
