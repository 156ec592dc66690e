import {
  apiPaths,
  authResponseSchema,
  changePasswordRequestSchema,
  deleteAccountRequestSchema,
  errorBodySchema,
  forgotPasswordRequestSchema,
  loginRequestSchema,
  logoutRequestSchema,
  messageResponseSchema,
  refreshRequestSchema,
  registerRequestSchema,
  resetPasswordRequestSchema,
  updateProfileRequestSchema,
  userSchema,
} from '@fabric/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppConfig } from '../../config/env.ts';
import { currentUser } from '../../plugins/auth.ts';
import { clientAddress, perIpLimit } from '../../plugins/rate-limit.ts';
import type { Services } from '../../services/index.ts';

function errors<const Statuses extends readonly number[]>(...statuses: Statuses) {
  return Object.fromEntries(statuses.map((status) => [status, errorBodySchema])) as Record<
    Statuses[number],
    typeof errorBodySchema
  >;
}

const tags = ['auth'];
const bearer = [{ bearerAuth: [] }];

export function authRoutes(
  fastify: FastifyInstance,
  { services, config }: { services: Services; config: AppConfig },
): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const signInLimit = perIpLimit('sign-in', config.authRateLimitPerIp);
  const passwordResetLimit = perIpLimit('password-reset', config.authRateLimitPerIp);

  app.post(
    apiPaths.auth.register,
    {
      config: signInLimit,
      schema: {
        tags,
        summary: 'Create an account and sign in',
        body: registerRequestSchema,
        response: { 201: authResponseSchema, ...errors(400, 409, 415, 429) },
      },
    },
    async (request, reply) => reply.code(201).send(await services.auth.register(request.body)),
  );

  app.post(
    apiPaths.auth.login,
    {
      config: signInLimit,
      schema: {
        tags,
        summary: 'Sign in with email and password',
        body: loginRequestSchema,
        response: { 200: authResponseSchema, ...errors(400, 401, 415, 429) },
      },
    },
    (request) => services.auth.login(request.body, clientAddress(request)),
  );

  app.post(
    apiPaths.auth.refresh,
    {
      schema: {
        tags,
        summary: 'Trade a refresh token for a new token pair (the old one stops working)',
        body: refreshRequestSchema,
        response: { 200: authResponseSchema, ...errors(400, 401, 415) },
      },
    },
    (request) => services.sessions.refresh(request.body.refresh_token),
  );

  app.post(
    apiPaths.auth.logout,
    {
      schema: {
        tags,
        summary: 'End the session of a refresh token',
        body: logoutRequestSchema,
        response: { 200: messageResponseSchema, ...errors(400, 415) },
      },
    },
    async (request) => {
      await services.sessions.end(request.body.refresh_token);
      return { message: 'You have been signed out.' };
    },
  );

  app.get(
    apiPaths.auth.me,
    {
      onRequest: [app.authenticate],
      schema: {
        tags,
        security: bearer,
        summary: 'The signed-in user',
        response: { 200: userSchema, ...errors(401) },
      },
    },
    (request) => services.account.getUser(currentUser(request).id),
  );

  app.put(
    apiPaths.auth.profile,
    {
      onRequest: [app.authenticate],
      schema: {
        tags,
        security: bearer,
        summary: 'Update name, organization name, domain or industry',
        body: updateProfileRequestSchema,
        response: { 200: userSchema, ...errors(400, 401, 415) },
      },
    },
    (request) => services.account.updateProfile(currentUser(request).id, request.body),
  );

  app.put(
    apiPaths.auth.password,
    {
      onRequest: [app.authenticate],
      schema: {
        tags,
        security: bearer,
        summary: 'Change the password; other sessions are signed out',
        body: changePasswordRequestSchema,
        response: { 200: messageResponseSchema, ...errors(400, 401, 415, 429) },
      },
    },
    (request) => {
      const user = currentUser(request);
      return services.account.changePassword(
        user.id,
        user.sessionId,
        request.body,
        clientAddress(request),
      );
    },
  );

  app.delete(
    apiPaths.auth.account,
    {
      onRequest: [app.authenticate],
      schema: {
        tags,
        security: bearer,
        summary:
          'Close the account: jobs cancelled, nodes unenrolled, any balance kept in the ledger as unclaimed funds',
        body: deleteAccountRequestSchema,
        response: { 200: messageResponseSchema, ...errors(400, 401, 415, 429) },
      },
    },
    (request) =>
      services.accountClosure.close(currentUser(request).id, request.body, clientAddress(request)),
  );

  app.post(
    apiPaths.auth.forgotPassword,
    {
      config: passwordResetLimit,
      schema: {
        tags,
        summary: 'Email a password reset link (same answer whether or not the account exists)',
        body: forgotPasswordRequestSchema,
        response: { 200: messageResponseSchema, ...errors(400, 415, 429) },
      },
    },
    (request) => services.passwordReset.requestReset(request.body.email),
  );

  app.post(
    apiPaths.auth.resetPassword,
    {
      config: passwordResetLimit,
      schema: {
        tags,
        summary: 'Set a new password with the token of a reset link',
        body: resetPasswordRequestSchema,
        response: { 200: messageResponseSchema, ...errors(400, 415, 429) },
      },
    },
    (request) =>
      services.passwordReset.resetPassword(request.body.token, request.body.new_password),
  );
}
