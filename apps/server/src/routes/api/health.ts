import { apiPaths, errorBodySchema, healthResponseSchema } from '@fabric/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Services } from '../../services/index.ts';

export function healthRoutes(app: FastifyInstance, { services }: { services: Services }): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    apiPaths.health,
    {
      schema: {
        tags: ['system'],
        summary: 'Whether the server is up and its database answers',
        response: { 200: healthResponseSchema, 503: errorBodySchema },
      },
    },
    () => services.health.check(),
  );
}
