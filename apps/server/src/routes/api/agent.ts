import {
  agentAckResponseSchema,
  agentPaths,
  commitJobRequestSchema,
  commitJobResponseSchema,
  COMPLETE_BODY_LIMIT_BYTES,
  completeJobRequestSchema,
  completeJobResponseSchema,
  enrollNodeRequestSchema,
  failJobRequestSchema,
  heartbeatRequestSchema,
  heartbeatResponseSchema,
  jobIdParamsSchema,
  leaseRequestSchema,
  leaseResponseSchema,
  progressRequestSchema,
  progressResponseSchema,
  registerNodeRequestSchema,
  registerNodeResponseSchema,
  releaseJobRequestSchema,
} from '@fabric/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUser, requireRole } from '../../plugins/auth.ts';
import { currentDevice } from '../../plugins/device-auth.ts';
import type { AppConfig } from '../../config/env.ts';
import { perIpLimit } from '../../plugins/rate-limit.ts';
import type { Services } from '../../services/index.ts';
import { errorResponses, routePattern } from './errors.ts';

const tags = ['agent'];
const deviceSecurity = [{ deviceToken: [] }];

/** An AbortSignal that fires when the client goes away before the answer is sent. */
function clientGone(reply: FastifyReply): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableFinished) controller.abort();
  };
  reply.raw.on('close', onClose);
  return { signal: controller.signal, dispose: () => reply.raw.off('close', onClose) };
}

/** The node agent's protocol (contract agent.ts). */
export function agentRoutes(
  fastify: FastifyInstance,
  { services, config }: { services: Services; config: AppConfig },
): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const onRequest = [app.authenticateDevice];

  app.post(
    agentPaths.register,
    {
      onRequest: [app.authenticate, requireRole('node_provider')],
      schema: {
        tags,
        security: [{ bearerAuth: [] }],
        summary:
          'Enroll a device with the provider’s access token; answers its device token ' +
          '(201 new node, 200 the same device enrolled again with a new token)',
        body: registerNodeRequestSchema,
        response: {
          200: registerNodeResponseSchema,
          201: registerNodeResponseSchema,
          ...errorResponses(400, 401, 403, 409, 415),
        },
      },
    },
    async (request, reply) => {
      const { response, isNew } = await services.devices.register(
        currentUser(request).id,
        request.body,
      );
      return reply.code(isNew ? 201 : 200).send(response);
    },
  );

  app.post(
    agentPaths.enroll,
    {
      // The code is the credential: guessing is slowed like sign-in.
      config: perIpLimit('sign-in', config.authRateLimitPerIp),
      schema: {
        tags,
        summary:
          'Enroll a device with a one-time enrollment code from Add Node; answers its device ' +
          'token (201 new node, 200 the same device enrolled again with a new token)',
        body: enrollNodeRequestSchema,
        response: {
          200: registerNodeResponseSchema,
          201: registerNodeResponseSchema,
          ...errorResponses(400, 401, 409, 415, 429),
        },
      },
    },
    async (request, reply) => {
      const { response, isNew } = await services.enrollmentCodes.enroll(request.body);
      return reply.code(isNew ? 201 : 200).send(response);
    },
  );

  app.post(
    agentPaths.heartbeat,
    {
      onRequest,
      schema: {
        tags,
        security: deviceSecurity,
        summary: 'The node is alive; answers its status and the jobs it must abort',
        body: heartbeatRequestSchema,
        response: { 200: heartbeatResponseSchema, ...errorResponses(400, 401, 415) },
      },
    },
    (request) => services.devices.heartbeat(currentDevice(request).id, request.body),
  );

  app.post(
    agentPaths.lease,
    {
      onRequest,
      schema: {
        tags,
        security: deviceSecurity,
        summary: 'Lease the next job, waiting up to wait_seconds for one (long poll)',
        body: leaseRequestSchema,
        response: { 200: leaseResponseSchema, ...errorResponses(400, 401, 415) },
      },
    },
    async (request, reply) => {
      const connection = clientGone(reply);
      try {
        const lease = await services.scheduler.lease(
          currentDevice(request).id,
          request.body.wait_seconds,
          connection.signal,
        );
        return { lease };
      } finally {
        connection.dispose();
      }
    },
  );

  app.post(
    routePattern(agentPaths.progress),
    {
      onRequest,
      schema: {
        tags,
        security: deviceSecurity,
        summary: 'Report progress of a leased job; extends the lease; abort: true means stop',
        params: jobIdParamsSchema,
        body: progressRequestSchema,
        response: { 200: progressResponseSchema, ...errorResponses(400, 401, 404, 415) },
      },
    },
    (request) =>
      services.scheduler.progress(currentDevice(request).id, request.params.id, request.body),
  );

  app.post(
    routePattern(agentPaths.commit),
    {
      onRequest,
      schema: {
        tags,
        security: deviceSecurity,
        summary:
          'Commit to the result of a leased job; the answer is the challenge the node must open',
        params: jobIdParamsSchema,
        body: commitJobRequestSchema,
        response: {
          200: commitJobResponseSchema,
          ...errorResponses(400, 401, 404, 409, 413, 415),
        },
      },
    },
    (request) =>
      services.scheduler.commit(currentDevice(request).id, request.params.id, request.body),
  );

  app.post(
    routePattern(agentPaths.complete),
    {
      onRequest,
      // A large F(n) is opened as its whole decimal value (about 2.1 MB at n = 10^7).
      bodyLimit: COMPLETE_BODY_LIMIT_BYTES,
      schema: {
        tags,
        security: deviceSecurity,
        summary:
          'Open the challenge of a committed result; it is verified before the job completes and is paid',
        params: jobIdParamsSchema,
        body: completeJobRequestSchema,
        response: {
          200: completeJobResponseSchema,
          ...errorResponses(400, 401, 404, 409, 413, 415),
        },
      },
    },
    (request) =>
      services.scheduler.complete(currentDevice(request).id, request.params.id, request.body),
  );

  app.post(
    routePattern(agentPaths.fail),
    {
      onRequest,
      schema: {
        tags,
        security: deviceSecurity,
        summary: 'Report that a leased job failed (retryable: try it elsewhere)',
        params: jobIdParamsSchema,
        body: failJobRequestSchema,
        response: { 200: agentAckResponseSchema, ...errorResponses(400, 401, 404, 409, 415) },
      },
    },
    async (request) => {
      await services.scheduler.fail(currentDevice(request).id, request.params.id, request.body);
      return { ok: true as const };
    },
  );

  app.post(
    routePattern(agentPaths.release),
    {
      onRequest,
      schema: {
        tags,
        security: deviceSecurity,
        summary: 'Hand a leased job back unfinished; it is queued again, the attempt not counted',
        params: jobIdParamsSchema,
        body: releaseJobRequestSchema,
        response: { 200: agentAckResponseSchema, ...errorResponses(400, 401, 404, 409, 415) },
      },
    },
    async (request) => {
      await services.scheduler.release(
        currentDevice(request).id,
        request.params.id,
        request.body.lease_id,
      );
      return { ok: true as const };
    },
  );
}
