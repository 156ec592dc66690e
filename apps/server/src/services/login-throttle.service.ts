import { describeWait, type Clock } from '../lib/clock.ts';
import { tooManyRequests } from '../lib/http-errors.ts';
import type { RateLimitRepository } from '../repositories/rate-limit.repository.ts';

export const ACCOUNT_WINDOW_MILLISECONDS = 15 * 60 * 1000;

/**
 * Per-account limit on password guesses (AUTH_RATE_LIMIT_PER_ACCOUNT per 15 minutes), counted in
 * the database so every server process sees the same count.
 *
 * Each check first reserves a hit and a right password gives it back. Reserving before verifying
 * (instead of counting failures afterwards) keeps the limit exact even when many guesses for one
 * account arrive at the same moment. Emails without an account are counted too, so a 429 does
 * not reveal whether an account exists.
 */
export function createLoginThrottle(options: {
  rateLimits: RateLimitRepository;
  maxFailures: number;
  clock: Clock;
}) {
  const keyOf = (email: string) => `account-password:${email}`;

  return {
    async reserveAttempt(email: string, what = 'sign-in'): Promise<void> {
      const now = options.clock();
      const { hits, windowEndsAt } = await options.rateLimits.hit(
        keyOf(email),
        now,
        ACCOUNT_WINDOW_MILLISECONDS,
      );
      if (hits > options.maxFailures) {
        const retryAfterSeconds = (windowEndsAt.getTime() - now.getTime()) / 1000;
        throw tooManyRequests(
          `Too many failed ${what} attempts for this account. Please try again in ${describeWait(retryAfterSeconds)}.`,
          retryAfterSeconds,
        );
      }
    },

    async forgiveAttempt(email: string): Promise<void> {
      await options.rateLimits.undoHit(keyOf(email), options.clock());
    },

    async clear(email: string): Promise<void> {
      await options.rateLimits.clear(keyOf(email));
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
