import { apiPaths, ERROR_CODES } from '@fabric/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppConfig } from '../../config/env.ts';
import { HttpError } from '../../lib/http-errors.ts';
import { currentUser } from '../../plugins/auth.ts';
import { clientAddress } from '../../plugins/rate-limit.ts';
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
 * Open streams of this process per user and per client address. A stream takes a slot of each
 * before it opens (429 when either is full) and gives both back when it ends, however it ends.
 */
export function createStreamSlots(limits: { perUser: number; perAddress: number }) {
  const byUser = new Map<string, number>();
  const byAddress = new Map<string, number>();
  const change = (counts: Map<string, number>, key: string, delta: number) => {
    const count = (counts.get(key) ?? 0) + delta;
    if (count > 0) counts.set(key, count);
    else counts.delete(key);
  };
  return {
    /** Takes a slot for the user and the address, or throws 429; returns the one-time release. */
    take(userId: string, address: string): () => void {
      if ((byUser.get(userId) ?? 0) >= limits.perUser) {
        throw tooManyStreams(`for this account (at most ${limits.perUser.toString()})`);
      }
      if ((byAddress.get(address) ?? 0) >= limits.perAddress) {
        throw tooManyStreams(`from this address (at most ${limits.perAddress.toString()})`);
      }
      change(byUser, userId, 1);
      change(byAddress, address, 1);
      let isReleased = false;
      return () => {
        if (isReleased) return;
        isReleased = true;
        change(byUser, userId, -1);
        change(byAddress, address, -1);
      };
    },
  };
}

function tooManyStreams(which: string): HttpError {
  return new HttpError(
    429,
    `Too many open event streams ${which}. Close one and retry.`,
    ERROR_CODES.rateLimited,
  );
}

/**
 * GET /api/events: a server-sent event stream telling the signed-in user which of their jobs and
 * nodes changed (`event: change`, data `{kind, id}`), so screens refetch just those within a
 * second. `ready` opens every stream and `resync` follows a lost database connection: refetch
 * everything shown. The stream ends when the access token expires (the client reconnects with a
 * fresh one) and at once when its sign-in ends, so a signed-out session stops hearing.
 */
export function eventRoutes(
  fastify: FastifyInstance,
  { services, config }: { services: Services; config: AppConfig },
): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // One token could otherwise hold any number of streams (each a socket, a subscription, timers).
  const slots = createStreamSlots({
    perUser: config.eventStreamsPerUser,
    perAddress: config.eventStreamsPerIp,
  });

  app.get(
    apiPaths.events,
    {
      onRequest: [app.authenticate],
      schema: {
        tags: ['events'],
        security: bearerSecurity,
        summary:
          'Server-sent events: which of your jobs and nodes changed (text/event-stream); ' +
          '429 beyond EVENT_STREAMS_PER_USER open streams per user or EVENT_STREAMS_PER_IP per address',
        response: errorResponses(401, 429),
      },
    },
    (request, reply) => {
      const user = currentUser(request);
      const release = slots.take(user.id, clientAddress(request));
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
        release();
        stream.end();
      }
      request.raw.on('close', end);
      stream.on('close', end);
      stream.on('error', end);

      send(`retry: ${RECONNECT_MILLISECONDS.toString()}\n\n`);
      send(event('ready', {}));
    },
  );
}
