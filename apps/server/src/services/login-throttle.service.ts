import { describeWait, type Clock } from '../lib/clock.ts';
import { tooManyRequests } from '../lib/http-errors.ts';
import type { BackoffPolicy, RateLimitRepository } from '../repositories/rate-limit.repository.ts';

/** The wait after the first failure beyond the free ones; it doubles with each further failure. */
export const FIRST_WAIT_MILLISECONDS = 1000;
/** No address ever waits longer than this between two guesses at one account. */
export const MAX_WAIT_MILLISECONDS = 15 * 60 * 1000;
/** An address's failures at an account are forgotten this long after its last one. */
export const FORGET_FAILURES_AFTER_MILLISECONDS = 24 * 60 * 60 * 1000;

/** Who is guessing at what: the account's email and the client address (`clientAddress`: IPv6 as its /64). */
export interface PasswordAttempt {
  email: string;
  address: string;
}

/**
 * Limits password guesses per (account, client address), counted in the database so every
 * server process sees the same count: `maxFailures` (AUTH_RATE_LIMIT_PER_ACCOUNT, 5) failures
 * from one address are free, then that address waits 1 s before its next try, then 2 s, 4 s ...
 * at most 15 minutes, until it gives the right password (its count starts afresh), a day passes
 * without a failure from it, or the owner resets the password by email (every address starts
 * afresh).
 *
 * There is deliberately no limit per account across addresses. Any such lock can be set off by a
 * stranger who knows only the email, and then the owner's right password, from their own
 * address, is refused: that is the lockout this design removes. What bounds a guesser instead:
 * one address reaches the 15-minute wait after 15 guesses and then makes about 100 a day; the
 * per-IP limit (AUTH_RATE_LIMIT_PER_IP a minute over sign-in and register, all accounts
 * together) bounds credential stuffing; argon2id makes each guess cost; and new passwords that
 * are among the most common ones are refused, so the guesses worth making first do not work.
 * A guesser with many addresses gets more guesses, but each address still pays its own waits.
 *
 * Each check first reserves a try and a right password clears the address's count. Reserving
 * before verifying (instead of counting failures afterwards) keeps the count exact even when many
 * guesses from one address arrive at the same moment. Emails without an account are counted too,
 * so a 429 does not reveal whether an account exists.
 */
export function createLoginThrottle(options: {
  rateLimits: RateLimitRepository;
  maxFailures: number;
  clock: Clock;
}) {
  const policy: BackoffPolicy = {
    freeHits: options.maxFailures,
    firstDelayMilliseconds: FIRST_WAIT_MILLISECONDS,
    maxDelayMilliseconds: MAX_WAIT_MILLISECONDS,
    forgetAfterMilliseconds: FORGET_FAILURES_AFTER_MILLISECONDS,
  };
  // An email has no spaces (the contract's email schema), so the prefix of one account's keys
  // never matches another account's.
  const prefixOf = (email: string) => `password-failures:${email} `;
  const keyOf = ({ email, address }: PasswordAttempt) => `${prefixOf(email)}${address}`;

  return {
    async reserveAttempt(attempt: PasswordAttempt, what = 'sign-in'): Promise<void> {
      const now = options.clock();
      const hit = await options.rateLimits.hitWithBackoff(keyOf(attempt), now, policy);
      if (!hit.allowed) {
        const retryAfterSeconds = (hit.retryAt.getTime() - now.getTime()) / 1000;
        throw tooManyRequests(
          `Too many failed ${what} attempts for this account from your network. Please try again in ${describeWait(retryAfterSeconds)}.`,
          retryAfterSeconds,
        );
      }
    },

    /** The right password: this address starts afresh at this account. */
    async forgiveAttempt(attempt: PasswordAttempt): Promise<void> {
      await options.rateLimits.clear(keyOf(attempt));
    },

    /** Every address starts afresh at this account (the owner proved it by email). */
    async clear(email: string): Promise<void> {
      await options.rateLimits.clearPrefix(prefixOf(email));
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
