import { apiPaths, updateSettingsRequestSchema, userSettingsSchema } from '@fabric/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/auth.ts';
import type { Services } from '../../services/index.ts';
import { bearerSecurity, errorResponses } from './errors.ts';

/** The Settings page's switches and minimum payout, saved per user (an addition to spec section 7). */
export function settingsRoutes(
  fastify: FastifyInstance,
  { services }: { services: Services },
): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['settings'];

  app.get(
    apiPaths.settings,
    {
      onRequest: [app.authenticate],
      schema: {
        tags,
        security: bearerSecurity,
        summary: 'The caller’s notification switches and minimum payout (USD)',
        response: { 200: userSettingsSchema, ...errorResponses(401) },
      },
    },
    (request) => services.settings.get(currentUser(request).id),
  );

  app.put(
    apiPaths.settings,
    {
      onRequest: [app.authenticate],
      schema: {
        tags,
        security: bearerSecurity,
        summary: 'Change any of the switches or the minimum payout (1.00 or more, 2 decimals)',
        body: updateSettingsRequestSchema,
        response: { 200: userSettingsSchema, ...errorResponses(400, 401, 415) },
      },
    },
    (request) => services.settings.update(currentUser(request).id, request.body),
  );
}
