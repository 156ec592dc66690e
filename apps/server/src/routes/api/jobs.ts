import {
  apiPaths,
  jobIdParamsSchema,
  jobListQuerySchema,
  jobListResponseSchema,
  jobSchema,
  submitJobRequestSchema,
} from '@fabric/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idempotencyKeyOf } from '../../lib/idempotency-key.ts';
import { currentUser, requireRole } from '../../plugins/auth.ts';
import type { Services } from '../../services/index.ts';
import { bearerSecurity, errorResponses, routePattern } from './errors.ts';

const tags = ['jobs'];

/** An enterprise's jobs: only enterprise accounts, only their own jobs (others' are 404). */
export function jobRoutes(fastify: FastifyInstance, { services }: { services: Services }): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const onRequest = [app.authenticate, requireRole('enterprise')];

  app.get(
    apiPaths.jobs.list,
    {
      onRequest,
      schema: {
        tags,
        security: bearerSecurity,
        summary:
          'The caller’s jobs, newest first, a page at a time (page 1, page_size 20 by default). ' +
          'status: all (default), queued, running (queued or running, as the Running tab), ' +
          'completed, failed or cancelled. counts: totals per status of all the caller’s jobs.',
        querystring: jobListQuerySchema,
        response: { 200: jobListResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => services.jobs.list(currentUser(request).id, request.query),
  );

  app.post(
    apiPaths.jobs.submit,
    {
      onRequest,
      schema: {
        tags,
        security: bearerSecurity,
        summary:
          'Submit a job; params are checked against the job type, and its price cap is held on the credits (402 when they fall short). ' +
          'Honours Idempotency-Key: the same key returns the same job with one hold; the key with another job is refused with 409.',
        body: submitJobRequestSchema,
        response: { 201: jobSchema, ...errorResponses(400, 401, 402, 403, 409, 415) },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await services.jobs.submit(
            currentUser(request).id,
            request.body,
            idempotencyKeyOf(request),
          ),
        ),
  );

  app.get(
    routePattern(apiPaths.jobs.detail),
    {
      onRequest,
      schema: {
        tags,
        security: bearerSecurity,
        summary: 'One of the caller’s jobs',
        params: jobIdParamsSchema,
        response: { 200: jobSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => services.jobs.get(currentUser(request).id, request.params.id),
  );

  app.post(
    routePattern(apiPaths.jobs.cancel),
    {
      onRequest,
      schema: {
        tags,
        security: bearerSecurity,
        summary: 'Cancel a queued or running job (a running job’s node is told to stop)',
        params: jobIdParamsSchema,
        response: { 200: jobSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) => services.jobs.cancel(currentUser(request).id, request.params.id),
  );
}
