import rateLimit, {
  normalizeIP,
  type FastifyRateLimitStore,
  type FastifyRateLimitStoreCtor,
  type RateLimitOptions,
} from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { describeWait, type Clock } from '../lib/clock.ts';
import { tooManyRequests } from '../lib/http-errors.ts';
import type { RateLimitRepository } from '../repositories/rate-limit.repository.ts';

/**
 * @fastify/rate-limit keeps counts in process memory unless given a store. This store keeps them
 * in the database (one atomic upsert per request), so a limit holds across every server process.
 */
function createDatabaseStore(
  rateLimits: RateLimitRepository,
  clock: Clock,
): FastifyRateLimitStoreCtor {
  return class DatabaseRateLimitStore implements FastifyRateLimitStore {
    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      const now = clock();
      rateLimits.hit(`ip:${key}`, now, timeWindow).then(
        ({ hits, windowEndsAt }) =>
          callback(null, { current: hits, ttl: windowEndsAt.getTime() - now.getTime() }),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    child(): FastifyRateLimitStore {
      return new DatabaseRateLimitStore();
    }
  };
}

/** Only routes that ask for a limit (through `perIpLimit`) are limited. */
export async function registerRateLimit(
  app: FastifyInstance,
  options: { rateLimits: RateLimitRepository; clock: Clock },
): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    store: createDatabaseStore(options.rateLimits, options.clock),
    errorResponseBuilder: (_request, context) => {
      const seconds = context.ttl / 1000;
      return tooManyRequests(
        `Too many requests from your network. Please try again in ${describeWait(seconds)}.`,
        seconds,
      );
    },
  });
}

/**
 * The address limits count under: the client's IP (behind TRUST_PROXY, from X-Forwarded-For),
 * an IPv4-mapped IPv6 address as IPv4, and any other IPv6 address as its /64 network, since one
 * client usually holds a whole /64.
 */
export function clientAddress(request: FastifyRequest): string {
  return normalizeIP(request.ip);
}

/**
 * Route config for a per-IP limit of `max` requests per minute. Routes passing the same `group`
 * share one count (login and register together).
 */
export function perIpLimit(group: string, max: number): { rateLimit: RateLimitOptions } {
  return {
    rateLimit: {
      max,
      timeWindow: 60_000,
      keyGenerator: (request) => `${group}:${clientAddress(request)}`,
    },
  };
}
