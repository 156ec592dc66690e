import { apiPaths, authResponseSchema, ERROR_CODES, userSchema } from '@fabric/contract';
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
import { createRecordingMailer, type RecordingMailer } from './support/mailer.ts';

const FORGOT_MESSAGE =
  'If an account exists for this email, we have sent a link to reset its password.';

describeEachDatabase('profile, password change and password reset', (database) => {
  let app: FastifyInstance;
  let mailer: RecordingMailer;
  const clock = createManualClock();

  beforeAll(async () => {
    mailer = createRecordingMailer();
    app = await database.buildApp({ mailer, clock: clock.now });
  });

  const signedInAs = (accessToken: string) =>
    app.inject({ url: apiPaths.auth.me, headers: bearer(accessToken) });
  const refresh = (refreshToken: string) =>
    app.inject({
      method: 'POST',
      url: apiPaths.auth.refresh,
      payload: { refresh_token: refreshToken },
    });
  const forgot = (email: string) =>
    app.inject({
      method: 'POST',
      url: apiPaths.auth.forgotPassword,
      payload: { email },
      remoteAddress: uniqueIp(),
    });
  const reset = (token: string, newPassword: string) =>
    app.inject({
      method: 'POST',
      url: apiPaths.auth.resetPassword,
      payload: { token, new_password: newPassword },
      remoteAddress: uniqueIp(),
    });

  describe('PUT /api/auth/profile', () => {
    const updateProfile = (accessToken: string, payload: unknown) =>
      app.inject({
        method: 'PUT',
        url: apiPaths.auth.profile,
        headers: bearer(accessToken),
        payload: payload as object,
      });

    it('updates the given fields, keeps the others, and answers the user', async () => {
      const { auth } = await registerUser(app, {
        role: 'enterprise',
        name: 'Old Name',
        industry: 'Retail',
      });
      const response = await updateProfile(auth.access_token, {
        name: '  Grace Hopper ',
        organization_name: 'Navy Labs',
        domain: 'navy.example',
      });
      expect(response.statusCode).toBe(200);
      expect(userSchema.parse(response.json())).toMatchObject({
        id: auth.user_id,
        name: 'Grace Hopper',
        organization_name: 'Navy Labs',
        domain: 'navy.example',
        industry: 'Retail',
      });
      const me = await app.inject({ url: apiPaths.auth.me, headers: bearer(auth.access_token) });
      expect(me.json()).toEqual(response.json());
    });

    it('clears a field given as an empty string', async () => {
      const { auth } = await registerUser(app, { name: 'Someone' });
      const response = await updateProfile(auth.access_token, { name: '' });
      expect(response.json()).toMatchObject({ name: null });
    });

    it('answers 400 for an update with no known field', async () => {
      const { auth } = await registerUser(app);
      for (const payload of [{}, { email: 'new@example.com' }, { role: 'enterprise' }]) {
        const response = await updateProfile(auth.access_token, payload);
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({
          message: 'Give at least one of name, organization_name, domain, industry',
          code: ERROR_CODES.validation,
        });
      }
    });

    it('answers 400 naming the field for a wrong type or an overlong value', async () => {
      const { auth } = await registerUser(app);
      const wrongType = await updateProfile(auth.access_token, { organization_name: { a: 1 } });
      expect(wrongType.statusCode).toBe(400);
      expect(wrongType.json()).toMatchObject({
        field: 'organization_name',
        message: 'Organization name must be text',
      });
      const tooLong = await updateProfile(auth.access_token, { domain: 'd'.repeat(201) });
      expect(tooLong.json()).toMatchObject({
        field: 'domain',
        message: 'Domain must be at most 200 characters',
      });
    });

    it('answers 401 without a token, before looking at the body', async () => {
      const response = await app.inject({
        method: 'PUT',
        url: apiPaths.auth.profile,
        payload: '{not json',
        headers: { 'content-type': 'application/json' },
      });
      expect(response.statusCode).toBe(401);
    });
  });

  describe('PUT /api/auth/password', () => {
    const changePassword = (accessToken: string, payload: object) =>
      app.inject({
        method: 'PUT',
        url: apiPaths.auth.password,
        headers: bearer(accessToken),
        payload,
      });

    it('changes the password: the old one stops working and the new one signs in', async () => {
      const { email, auth } = await registerUser(app);
      const response = await changePassword(auth.access_token, {
        current_password: TEST_PASSWORD,
        new_password: 'a brand new password',
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        message: 'Your password has been changed. Other sessions were signed out.',
      });
      expect((await login(app, { email, password: TEST_PASSWORD })).statusCode).toBe(401);
      expect((await login(app, { email, password: 'a brand new password' })).statusCode).toBe(200);
    });

    it('signs out the other sessions and keeps the one that changed the password', async () => {
      const { email, auth } = await registerUser(app);
      const other = authResponseSchema.parse(
        (await login(app, { email, password: TEST_PASSWORD })).json(),
      );
      await changePassword(auth.access_token, {
        current_password: TEST_PASSWORD,
        new_password: 'another password 2',
      });
      expect((await refresh(other.refresh_token)).statusCode).toBe(401);
      expect((await signedInAs(other.access_token)).statusCode).toBe(401);
      expect((await signedInAs(auth.access_token)).statusCode).toBe(200);
      expect((await refresh(auth.refresh_token)).statusCode).toBe(200);
    });

    it('answers 400 with a clear message for a wrong current password and changes nothing', async () => {
      const { email, auth } = await registerUser(app);
      const response = await changePassword(auth.access_token, {
        current_password: 'not my password',
        new_password: 'whatever else 123',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        message: 'Current password is incorrect',
        code: ERROR_CODES.invalidCredentials,
        field: 'current_password',
      });
      expect((await login(app, { email, password: TEST_PASSWORD })).statusCode).toBe(200);
    });

    it('answers 400 for a new password that is too short or the same as the current one', async () => {
      const { auth } = await registerUser(app);
      const short = await changePassword(auth.access_token, {
        current_password: TEST_PASSWORD,
        new_password: 'short',
      });
      expect(short.json()).toMatchObject({
        field: 'new_password',
        message: 'Password must be at least 8 characters',
      });
      const same = await changePassword(auth.access_token, {
        current_password: TEST_PASSWORD,
        new_password: TEST_PASSWORD,
      });
      expect(same.statusCode).toBe(400);
      expect(same.json()).toMatchObject({
        field: 'new_password',
        message: 'New password must be different from the current password',
      });
    });

    it('answers 400 for a new password that is one of the most common ones', async () => {
      const { email, auth } = await registerUser(app);
      const common = await changePassword(auth.access_token, {
        current_password: TEST_PASSWORD,
        new_password: 'iloveyou',
      });
      expect(common.statusCode).toBe(400);
      expect(common.json()).toEqual({
        field: 'new_password',
        message: 'This password is too common; choose one that is harder to guess',
        code: ERROR_CODES.validation,
      });
      expect((await login(app, { email, password: TEST_PASSWORD })).statusCode).toBe(200);
    });

    it('answers 401 without a token', async () => {
      const response = await app.inject({
        method: 'PUT',
        url: apiPaths.auth.password,
        payload: { current_password: TEST_PASSWORD, new_password: 'a brand new password' },
      });
      expect(response.statusCode).toBe(401);
    });
  });

  describe('POST /api/auth/forgot-password and /api/auth/reset-password', () => {
    it('answers the same 200 whether or not the account exists, and emails only real accounts', async () => {
      const { email } = await registerUser(app);
      const unknown = uniqueEmail('ghost');
      const known = await forgot(email.toUpperCase());
      const missing = await forgot(unknown);
      expect(known.statusCode).toBe(200);
      expect(missing.statusCode).toBe(200);
      expect(known.json()).toEqual({ message: FORGOT_MESSAGE });
      expect(missing.json()).toEqual(known.json());

      const sent = mailer.messages.filter((message) => message.to === email);
      expect(sent).toHaveLength(1);
      expect(sent[0]?.text).toMatch(
        /http:\/\/fabric\.test\/auth\/reset-password\?token=[A-Za-z0-9_-]{43}/,
      );
      expect(mailer.messages.some((message) => message.to === unknown)).toBe(false);
    });

    it('resets the password with the emailed token, signs out every session, and the old password stops working', async () => {
      const { email, auth } = await registerUser(app);
      await forgot(email);
      const response = await reset(mailer.lastResetToken(email), 'my new password');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        message: 'Your password has been reset. Please sign in with your new password.',
      });

      expect((await login(app, { email, password: TEST_PASSWORD })).statusCode).toBe(401);
      expect((await login(app, { email, password: 'my new password' })).statusCode).toBe(200);
      expect((await refresh(auth.refresh_token)).statusCode).toBe(401);
      expect((await signedInAs(auth.access_token)).statusCode).toBe(401);
    });

    it('accepts a reset token only once', async () => {
      const { email } = await registerUser(app);
      await forgot(email);
      const token = mailer.lastResetToken(email);
      expect((await reset(token, 'first new password')).statusCode).toBe(200);
      const second = await reset(token, 'second new password');
      expect(second.statusCode).toBe(400);
      expect(second.json()).toEqual({
        message: 'This password reset link has already been used. Please request a new one.',
        code: ERROR_CODES.invalidToken,
        field: 'token',
      });
      expect((await login(app, { email, password: 'first new password' })).statusCode).toBe(200);
    });

    it('refuses a token after PASSWORD_RESET_TTL_MINUTES', async () => {
      const { email } = await registerUser(app);
      await forgot(email);
      const token = mailer.lastResetToken(email);
      clock.advanceBy(31 * 60 * 1000);
      const response = await reset(token, 'too late password');
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        message: 'This password reset link has expired. Please request a new one.',
        field: 'token',
      });
      expect((await login(app, { email, password: TEST_PASSWORD })).statusCode).toBe(200);
    });

    it('refuses an unknown token with 400', async () => {
      const response = await reset('made-up-token', 'some new password');
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        message: 'This password reset link is not valid. Please request a new one.',
        code: ERROR_CODES.invalidToken,
      });
    });

    it('keeps only the newest link working when a reset is requested twice', async () => {
      const { email } = await registerUser(app);
      await forgot(email);
      const older = mailer.lastResetToken(email);
      await forgot(email);
      const newer = mailer.lastResetToken(email);
      expect(newer).not.toBe(older);
      expect((await reset(older, 'from the older link')).statusCode).toBe(400);
      expect((await reset(newer, 'from the newer link')).statusCode).toBe(200);
    });

    it('answers 400 naming the field for a short new password or a missing token', async () => {
      const { email } = await registerUser(app);
      await forgot(email);
      const short = await reset(mailer.lastResetToken(email), 'short');
      expect(short.json()).toMatchObject({
        field: 'new_password',
        message: 'Password must be at least 8 characters',
      });
      const common = await reset(mailer.lastResetToken(email), 'Sunshine');
      expect(common.json()).toMatchObject({
        field: 'new_password',
        message: 'This password is too common; choose one that is harder to guess',
      });
      const missingToken = await app.inject({
        method: 'POST',
        url: apiPaths.auth.resetPassword,
        payload: { new_password: 'long enough' },
      });
      expect(missingToken.json()).toMatchObject({
        field: 'token',
        message: 'Reset token is required',
      });
      const badEmail = await forgot('not-an-email');
      expect(badEmail.json()).toMatchObject({
        field: 'email',
        message: 'Email must be a valid email address',
      });
    });
  });
});
