import swagger from '@fastify/swagger';
import { API_PREFIX, PRODUCT_NAME } from '@fabric/contract';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** The OpenAPI document is generated from the contract's zod schemas on the routes. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: `${PRODUCT_NAME} API`,
        description: 'Distributed compute marketplace: accounts, nodes, jobs and payments.',
        version: '0.1.0',
      },
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          deviceToken: {
            type: 'http',
            scheme: 'bearer',
            description: 'The device token (fdt_...) returned by /api/agent/register',
          },
        },
      },
    },
    transform: jsonSchemaTransform,
  });

  app.get(`${API_PREFIX}/openapi.json`, { schema: { hide: true } }, () => app.swagger());
}
