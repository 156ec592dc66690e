import { apiPaths } from '@fabric/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/auth.ts';
import type { Change } from '../../services/change-feed.service.ts';
import type { Services } from '../../services/index.ts';
import { bearerSecurity, errorResponses } from './errors.ts';

/** A comment line this often keeps proxies and browsers from closing a quiet stream. */
const KEEP_ALIVE_MILLISECONDS = 15_000;
/** How long a browser waits before reconnecting a dropped stream. */
const RECONNECT_MILLISECONDS = 1000;
/** A client this far behind is cut off; it reconnects and refetches instead of piling up memory. */
const MAX_BUFFERED_BYTES = 256 * 1024;

function event(name: string, data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * GET /api/events: a server-sent event stream telling the signed-in user which of their jobs and
 * nodes changed (`event: change`, data `{kind, id}`), so screens refetch just those within a
 * second. `ready` opens every stream and `resync` follows a lost database connection: refetch
 * everything shown. The stream ends when the access token expires (the client reconnects with a
 * fresh one) and at once when its sign-in ends, so a signed-out session stops hearing.
 */
export function eventRoutes(fastify: FastifyInstance, { services }: { services: Services }): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    apiPaths.events,
    {
      onRequest: [app.authenticate],
      schema: {
        tags: ['events'],
        security: bearerSecurity,
        summary: 'Server-sent events: which of your jobs and nodes changed (text/event-stream)',
        response: errorResponses(401),
      },
    },
    (request, reply) => {
      const user = currentUser(request);
      reply.hijack();
      const stream = reply.raw;
      stream.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        // Reverse proxies (nginx) must pass events on at once.
        'x-accel-buffering': 'no',
      });

      let isEnded = false;
      const send = (text: string) => {
        if (isEnded) return;
        if (stream.writableLength > MAX_BUFFERED_BYTES) {
          end();
          return;
        }
        stream.write(text);
      };
      const unsubscribe = services.changes.subscribe(user.id, {
        onChange: (change: Change) => {
          send(event('change', change));
        },
        onResync: () => {
          send(event('resync', {}));
        },
        onSessionEnded: (sessionId) => {
          if (sessionId === user.sessionId) end();
        },
        onClose: () => {
          end();
        },
      });
      const keepAlive = setInterval(() => {
        send(': keep-alive\n\n');
      }, KEEP_ALIVE_MILLISECONDS);
      const expiry = setTimeout(
        () => {
          end();
        },
        Math.max(0, user.accessTokenExpiresAt.getTime() - services.clock().getTime()),
      );

      function end() {
        if (isEnded) return;
        isEnded = true;
        clearInterval(keepAlive);
        clearTimeout(expiry);
        unsubscribe();
        stream.end();
      }
      request.raw.on('close', end);
      stream.on('error', end);

      send(`retry: ${RECONNECT_MILLISECONDS.toString()}\n\n`);
      send(event('ready', {}));
    },
  );
}
