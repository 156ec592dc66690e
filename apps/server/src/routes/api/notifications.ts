import {
  apiPaths,
  messageResponseSchema,
  notificationIdParamsSchema,
  notificationListQuerySchema,
  notificationListResponseSchema,
  notificationSchema,
  unreadCountResponseSchema,
} from '@fabric/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/auth.ts';
import type { Services } from '../../services/index.ts';
import { bearerSecurity, errorResponses, routePattern } from './errors.ts';

/** The caller's notifications (an addition to spec section 7): list, unread count, mark read. */
export function notificationRoutes(
  fastify: FastifyInstance,
  { services }: { services: Services },
): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const onRequest = [app.authenticate];
  const tags = ['notifications'];

  app.get(
    apiPaths.notifications.list,
    {
      onRequest,
      schema: {
        tags,
        security: bearerSecurity,
        summary: 'The caller’s notifications, newest first, 20 a page, with the unread count',
        querystring: notificationListQuerySchema,
        response: { 200: notificationListResponseSchema, ...errorResponses(400, 401) },
      },
    },
    (request) => services.notifications.list(currentUser(request).id, request.query.page),
  );

  app.get(
    apiPaths.notifications.unreadCount,
    {
      onRequest,
      schema: {
        tags,
        security: bearerSecurity,
        summary: 'How many of the caller’s notifications are unread',
        response: { 200: unreadCountResponseSchema, ...errorResponses(401) },
      },
    },
    (request) => services.notifications.unreadCount(currentUser(request).id),
  );

  app.post(
    routePattern(apiPaths.notifications.read),
    {
      onRequest,
      schema: {
        tags,
        security: bearerSecurity,
        summary: 'Mark one notification read',
        params: notificationIdParamsSchema,
        response: { 200: notificationSchema, ...errorResponses(400, 401, 404) },
      },
    },
    (request) => services.notifications.markRead(currentUser(request).id, request.params.id),
  );

  app.post(
    apiPaths.notifications.readAll,
    {
      onRequest,
      schema: {
        tags,
        security: bearerSecurity,
        summary: 'Mark every notification read',
        response: { 200: messageResponseSchema, ...errorResponses(401) },
      },
    },
    (request) => services.notifications.markAllRead(currentUser(request).id),
  );
}
