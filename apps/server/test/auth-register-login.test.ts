import {
  apiPaths,
  authResponseSchema,
  ERROR_CODES,
  errorBodySchema,
  userSchema,
} from '@fabric/contract';
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
import { describeEachDatabase } from './support/databases.ts';

describeEachDatabase('registration and sign-in', (database) => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = await database.buildApp();
  });

  function postJson(url: string, payload: unknown) {
    return app.inject({
      method: 'POST',
      url,
      payload: JSON.stringify(payload),
      headers: { 'content-type': 'application/json' },
      remoteAddress: uniqueIp(),
    });
  }

  describe('POST /api/auth/register', () => {
    it('creates the account, answers 201 with a signed-in token pair and keeps the profile fields', async () => {
      const email = uniqueEmail('Ada');
      const response = await postJson(apiPaths.auth.register, {
        email: `  ${email.toUpperCase()} `,
        password: TEST_PASSWORD,
        role: 'enterprise',
        name: 'Ada Lovelace',
        organization_name: 'Analytical Engines Ltd',
        domain: 'engines.example',
        industry: 'Computing',
      });

      expect(response.statusCode).toBe(201);
      const auth = authResponseSchema.parse(response.json());
      expect(auth).toMatchObject({
        email,
        role: 'enterprise',
        token_type: 'Bearer',
        expires_in: 900,
      });
      expect(auth.refresh_token).not.toBe(auth.access_token);

      const me = await app.inject({ url: apiPaths.auth.me, headers: bearer(auth.access_token) });
      expect(userSchema.parse(me.json())).toMatchObject({
        id: auth.user_id,
        email,
        role: 'enterprise',
        name: 'Ada Lovelace',
        organization_name: 'Analytical Engines Ltd',
        domain: 'engines.example',
        industry: 'Computing',
      });
    });

    it('accepts the three fields the spec client sends and leaves the profile fields empty', async () => {
      const { auth } = await registerUser(app, { role: 'node_provider' });
      const me = await app.inject({ url: apiPaths.auth.me, headers: bearer(auth.access_token) });
      expect(me.json()).toMatchObject({
        role: 'node_provider',
        name: null,
        organization_name: null,
      });
    });

    it('answers 409 for an email that already has an account, whatever its letter case', async () => {
      const { email } = await registerUser(app);
      for (const candidate of [email, email.toUpperCase()]) {
        const response = await postJson(apiPaths.auth.register, {
          email: candidate,
          password: 'another password',
          role: 'enterprise',
        });
        expect(response.statusCode).toBe(409);
        expect(response.json()).toEqual({
          message: 'An account with this email already exists',
          code: ERROR_CODES.conflict,
          field: 'email',
        });
      }
    });

    it('gives exactly one of two simultaneous registrations of one email the account', async () => {
      const email = uniqueEmail('race');
      const body = { email, password: TEST_PASSWORD, role: 'enterprise' };
      const statuses = (
        await Promise.all([
          postJson(apiPaths.auth.register, body),
          postJson(apiPaths.auth.register, body),
        ])
      ).map((response) => response.statusCode);
      expect(statuses.sort()).toEqual([201, 409]);
    });

    it.each([
      [{ password: TEST_PASSWORD, role: 'enterprise' }, 'email', 'Email is required'],
      [
        { email: 'not-an-email', password: TEST_PASSWORD, role: 'enterprise' },
        'email',
        'Email must be a valid email address',
      ],
      [{ email: uniqueEmail(), role: 'enterprise' }, 'password', 'Password is required'],
      [
        { email: uniqueEmail(), password: 'short', role: 'enterprise' },
        'password',
        'Password must be at least 8 characters',
      ],
      [
        { email: uniqueEmail(), password: 'x'.repeat(129), role: 'enterprise' },
        'password',
        'Password must be at most 128 characters',
      ],
      [
        { email: uniqueEmail(), password: 'Password1', role: 'enterprise' },
        'password',
        'This password is too common; choose one that is harder to guess',
      ],
      [
        { email: uniqueEmail(), password: TEST_PASSWORD },
        'role',
        'Role must be node_provider or enterprise',
      ],
      [
        { email: uniqueEmail(), password: TEST_PASSWORD, role: 'admin' },
        'role',
        'Role must be node_provider or enterprise',
      ],
      [
        { email: uniqueEmail(), password: TEST_PASSWORD, role: 'enterprise', name: 42 },
        'name',
        'Name must be text',
      ],
      [
        {
          email: uniqueEmail(),
          password: TEST_PASSWORD,
          role: 'enterprise',
          industry: 'x'.repeat(201),
        },
        'industry',
        'Industry must be at most 200 characters',
      ],
    ])('answers 400 naming the field for %j', async (payload, field, message) => {
      const response = await postJson(apiPaths.auth.register, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message, field, code: ERROR_CODES.validation });
    });

    it('ignores fields the contract does not know, such as a role escalation attempt', async () => {
      const email = uniqueEmail();
      const response = await postJson(apiPaths.auth.register, {
        email,
        password: TEST_PASSWORD,
        role: 'node_provider',
        is_admin: true,
        id: '00000000-0000-0000-0000-000000000000',
      });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({ email, role: 'node_provider' });
      expect(response.json<{ user_id: string }>().user_id).not.toBe(
        '00000000-0000-0000-0000-000000000000',
      );
    });
  });

  describe('POST /api/auth/login', () => {
    it('signs in with the right password and answers 200 with the contract auth response', async () => {
      const { email, auth: registered } = await registerUser(app, { role: 'enterprise' });
      const response = await login(app, { email: email.toUpperCase(), password: TEST_PASSWORD });
      expect(response.statusCode).toBe(200);
      const auth = authResponseSchema.parse(response.json());
      expect(auth).toMatchObject({ user_id: registered.user_id, email, role: 'enterprise' });
      expect(auth.refresh_token).not.toBe(registered.refresh_token);
    });

    it('answers the same 401 for a wrong password and for an unknown email', async () => {
      const { email } = await registerUser(app);
      const wrongPassword = await login(app, { email, password: 'not the password' });
      const unknownEmail = await login(app, {
        email: uniqueEmail('nobody'),
        password: TEST_PASSWORD,
      });
      expect(wrongPassword.statusCode).toBe(401);
      expect(unknownEmail.statusCode).toBe(401);
      expect(wrongPassword.json()).toEqual({
        message: 'Invalid email or password',
        code: ERROR_CODES.invalidCredentials,
      });
      expect(unknownEmail.json()).toEqual(wrongPassword.json());
    });

    it('checks only the presence of the password, so a short wrong one is 401 and not a rules lesson', async () => {
      const { email } = await registerUser(app);
      const response = await login(app, { email, password: 'x' });
      expect(response.statusCode).toBe(401);
    });

    it('answers 400 naming the missing field', async () => {
      const missingPassword = await postJson(apiPaths.auth.login, { email: uniqueEmail() });
      expect(missingPassword.statusCode).toBe(400);
      expect(missingPassword.json()).toMatchObject({
        field: 'password',
        message: 'Password is required',
      });
      const badEmail = await postJson(apiPaths.auth.login, { email: 'nope', password: 'whatever' });
      expect(badEmail.json()).toMatchObject({
        field: 'email',
        message: 'Email must be a valid email address',
      });
    });
  });

  describe('bodies that are not what the contract asks for', () => {
    const weirdBodies: [string, string][] = [
      ['an array', '[1,2,3]'],
      ['a number', '42'],
      ['null', 'null'],
      ['a string', '"hello"'],
      ['true', 'true'],
      ['an object of wrong types', '{"email":["a@b.co"],"password":{"x":1},"role":7}'],
      ['a nested mess', '{"email":{"$gt":""},"password":{"$ne":null}}'],
      [
        'a huge email',
        JSON.stringify({ email: `${'a'.repeat(500_000)}@example.com`, password: 'x' }),
      ],
      [
        'a huge password',
        JSON.stringify({ email: 'a@example.com', password: 'p'.repeat(500_000) }),
      ],
      [
        'a prototype pollution attempt',
        '{"__proto__":{"isAdmin":true},"email":"a@b.co","password":"x"}',
      ],
      ['a constructor pollution attempt', '{"constructor":{"prototype":{"isAdmin":true}}}'],
      [
        'unicode and NUL characters',
        JSON.stringify({ email: 'a\u0000@exa\u202emple.com', password: '\u0000\uffff' }),
      ],
    ];

    for (const url of [apiPaths.auth.login, apiPaths.auth.register]) {
      it.each(weirdBodies)(
        `answers ${url} with 400 and the error body for %s`,
        async (_label, payload) => {
          const response = await app.inject({
            method: 'POST',
            url,
            payload,
            headers: { 'content-type': 'application/json' },
            remoteAddress: uniqueIp(),
          });
          expect(response.statusCode).toBe(400);
          const body = errorBodySchema.parse(response.json());
          expect(body.message.length).toBeGreaterThan(0);
        },
      );
    }

    it('says a body that is not an object must be a JSON object', async () => {
      const response = await postJson(apiPaths.auth.login, [1, 2]);
      expect(response.json()).toEqual({
        message: 'Request body must be a JSON object',
        code: ERROR_CODES.validation,
      });
    });

    it('answers 400 "Request body must be valid JSON" for malformed JSON', async () => {
      const response = await app.inject({
        method: 'POST',
        url: apiPaths.auth.login,
        payload: '{"email": "a@b.co", ',
        headers: { 'content-type': 'application/json' },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        message: 'Request body must be valid JSON',
        code: ERROR_CODES.invalidJson,
      });
    });

    it('answers 400 for a missing body, with or without a JSON content type', async () => {
      const withoutType = await app.inject({ method: 'POST', url: apiPaths.auth.login });
      expect(withoutType.statusCode).toBe(400);
      expect(withoutType.json()).toMatchObject({ message: 'Request body must be a JSON object' });
      const withType = await app.inject({
        method: 'POST',
        url: apiPaths.auth.login,
        headers: { 'content-type': 'application/json' },
      });
      expect(withType.statusCode).toBe(400);
      expect(withType.json()).toMatchObject({ code: ERROR_CODES.invalidJson });
    });

    it.each([
      'text/plain',
      'application/xml',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ])('answers 415 for a %s body', async (contentType) => {
      const response = await app.inject({
        method: 'POST',
        url: apiPaths.auth.login,
        payload: 'email=a@b.co&password=x',
        headers: { 'content-type': contentType },
      });
      expect(response.statusCode).toBe(415);
      expect(response.json()).toEqual({
        message: 'Content-Type must be application/json',
        code: ERROR_CODES.unsupportedMediaType,
      });
    });

    it('answers 413 for a body over 1 MiB', async () => {
      const response = await postJson(apiPaths.auth.register, { email: 'a'.repeat(1_100_000) });
      expect(response.statusCode).toBe(413);
      expect(response.json()).toEqual({
        message: 'Request body is too large',
        code: ERROR_CODES.payloadTooLarge,
      });
    });
  });
});
