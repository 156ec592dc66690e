import {
  apiPaths,
  enrollmentCodeResponseSchema,
  messageResponseSchema,
  nodeEarningsResponseSchema,
  nodeIdParamsSchema,
  nodeJobsQuerySchema,
  nodeJobsResponseSchema,
  nodeListResponseSchema,
  nodeSchema,
} from '@fabric/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUser, requireRole } from '../../plugins/auth.ts';
import type { Services } from '../../services/index.ts';
import { bearerSecurity, errorResponses, routePattern } from './errors.ts';

const tags = ['nodes'];

/** A provider's nodes: only node_provider accounts, only their own nodes (others' are 404). */
export function nodeRoutes(fastify: FastifyInstance, { services }: { services: Services }): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const onRequest = [app.authenticate, requireRole('node_provider')];
  const node = routePattern(apiPaths.nodes.detail);

  app.get(
    apiPaths.nodes.list,
    {
      onRequest,
      schema: {
        tags,
        security: bearerSecurity,
        summary: "The caller's enrolled nodes, oldest first",
        response: { 200: nodeListResponseSchema, ...errorResponses(401, 403) },
      },
    },
    (request) => services.nodes.list(currentUser(request).id),
  );

  app.post(
    apiPaths.nodes.enrollmentCodes,
    {
      onRequest,
      schema: {
        tags,
        security: bearerSecurity,
        summary:
          'A one-time code (15 minutes) that enrolls a device without the password: ' +
          'fabric-agent --code <code>',
        response: { 201: enrollmentCodeResponseSchema, ...errorResponses(401, 403) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await services.enrollmentCodes.create(currentUser(request).id)),
  );

  app.get(
    node,
    {
      onRequest,
      schema: {
        tags,
        security: bearerSecurity,
        summary: 'One of the caller’s nodes',
        params: nodeIdParamsSchema,
        response: { 200: nodeSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => services.nodes.get(currentUser(request).id, request.params.id),
  );

  app.delete(
    node,
    {
      onRequest,
      schema: {
        tags,
        security: bearerSecurity,
        summary: 'Unenroll a node: its device token stops working, its running job is requeued',
        params: nodeIdParamsSchema,
        response: { 200: messageResponseSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => services.nodes.unenroll(currentUser(request).id, request.params.id),
  );

  app.get(
    routePattern(apiPaths.nodes.earnings),
    {
      onRequest,
      schema: {
        tags,
        security: bearerSecurity,
        summary: 'Earnings of a node per day and per completed job (USD)',
        params: nodeIdParamsSchema,
        response: { 200: nodeEarningsResponseSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => services.nodes.earnings(currentUser(request).id, request.params.id),
  );

  app.post(
    routePattern(apiPaths.nodes.pause),
    {
      onRequest,
      schema: {
        tags,
        security: bearerSecurity,
        summary: 'Stop giving the node new jobs (a running job finishes)',
        params: nodeIdParamsSchema,
        response: { 200: nodeSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => services.nodes.pause(currentUser(request).id, request.params.id),
  );

  app.post(
    routePattern(apiPaths.nodes.resume),
    {
      onRequest,
      schema: {
        tags,
        security: bearerSecurity,
        summary: 'Give the node jobs again',
        params: nodeIdParamsSchema,
        response: { 200: nodeSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => services.nodes.resume(currentUser(request).id, request.params.id),
  );

  app.get(
    routePattern(apiPaths.nodes.jobs),
    {
      onRequest,
      schema: {
        tags,
        security: bearerSecurity,
        summary: "The node's most recent job attempts, newest first (default 20, at most 100)",
        params: nodeIdParamsSchema,
        querystring: nodeJobsQuerySchema,
        response: { 200: nodeJobsResponseSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) =>
      services.nodes.recentAttempts(
        currentUser(request).id,
        request.params.id,
        request.query.limit,
      ),
  );
}
