import { createReadStream } from 'node:fs';
import {
  agentPaths,
  apiPaths,
  marketplaceModelParamsSchema,
  marketplaceModelSchema,
  marketplaceSearchQuerySchema,
  marketplaceSearchResponseSchema,
  modelFileParamsSchema,
} from '@fabric/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { parseByteRange } from '../../lib/byte-range.ts';
import type { Services } from '../../services/index.ts';
import { bearerSecurity, errorResponses, routePattern } from './errors.ts';

const deviceSecurity = [{ deviceToken: [] }];

/**
 * The model marketplace (spec section 7): signed-in users of either role search it and read one
 * entry; enrolled devices download a listed file by its sha256, resumably.
 */
export function marketplaceRoutes(
  fastify: FastifyInstance,
  { services }: { services: Services },
): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['marketplace'];

  app.get(
    apiPaths.marketplace.search,
    {
      onRequest: [app.authenticate],
      schema: {
        tags,
        security: bearerSecurity,
        summary: 'Search the models and datasets AI jobs can use, 20 a page',
        querystring: marketplaceSearchQuerySchema,
        response: { 200: marketplaceSearchResponseSchema, ...errorResponses(400, 401) },
      },
    },
    (request) => services.marketplace.search(request.query),
  );

  app.get(
    routePattern(apiPaths.marketplace.model),
    {
      onRequest: [app.authenticate],
      schema: {
        tags,
        security: bearerSecurity,
        summary: 'One model or dataset of the marketplace',
        params: marketplaceModelParamsSchema,
        response: { 200: marketplaceModelSchema, ...errorResponses(400, 401, 404) },
      },
    },
    (request) => services.marketplace.get(request.params.id),
  );

  app.get(
    routePattern(agentPaths.modelFile, 'sha256'),
    {
      onRequest: [app.authenticateDevice],
      schema: {
        tags: ['agent'],
        security: deviceSecurity,
        summary: 'A marketplace file by its sha256, for enrolled devices (HTTP Range supported)',
        params: modelFileParamsSchema,
      },
    },
    async (request, reply) => {
      const file = await services.marketplace.file(request.params.sha256);
      const range = parseByteRange(request.headers.range, file.sizeBytes);
      void reply.header('accept-ranges', 'bytes');
      if (range === 'unsatisfiable') {
        return reply
          .code(416)
          .header('content-range', `bytes */${file.sizeBytes}`)
          .send({ message: 'The requested range starts past the end of the file' });
      }
      // A file never changes under its sha256.
      void reply
        .type('application/octet-stream')
        .header('cache-control', 'private, max-age=31536000, immutable');
      if (range) {
        return reply
          .code(206)
          .header('content-range', `bytes ${range.start}-${range.end}/${file.sizeBytes}`)
          .header('content-length', range.end - range.start + 1)
          .send(createReadStream(file.path, { start: range.start, end: range.end }));
      }
      return reply.header('content-length', file.sizeBytes).send(createReadStream(file.path));
    },
  );
}
