import { and, eq, gt, lte, sql } from 'drizzle-orm';
import type { Database } from '../db/connection.ts';
import { rateLimitCounters } from '../db/schema.ts';

export interface RateLimitCount {
  hits: number;
  windowEndsAt: Date;
}

/** Growing waits between hits of one key (see `hitWithBackoff`). */
export interface BackoffPolicy {
  /** Hits that never wait. */
  freeHits: number;
  /** The wait after the first hit beyond `freeHits`; it doubles with each further hit. */
  firstDelayMilliseconds: number;
  maxDelayMilliseconds: number;
  /** A key's hits are forgotten this long after its last hit; at least `maxDelayMilliseconds`. */
  forgetAfterMilliseconds: number;
}

export type BackoffHit = { allowed: true } | { allowed: false; retryAt: Date };

export function createRateLimitRepository(db: Database) {
  return {
    /**
     * Counts one hit for `key` and returns the count of its current window. A single
     * INSERT ... ON CONFLICT DO UPDATE is atomic in PostgreSQL, so processes sharing the database
     * never lose a hit; a window that has ended restarts at 1 in the same statement.
     */
    async hit(key: string, now: Date, windowMilliseconds: number): Promise<RateLimitCount> {
      const newWindowEndsAt = new Date(now.getTime() + windowMilliseconds);
      const hasEnded = sql`${rateLimitCounters.windowEndsAt} <= ${now.toISOString()}::timestamptz`;
      const [row] = await db
        .insert(rateLimitCounters)
        .values({ key, hits: 1, windowEndsAt: newWindowEndsAt })
        .onConflictDoUpdate({
          target: rateLimitCounters.key,
          set: {
            hits: sql`CASE WHEN ${hasEnded} THEN 1 ELSE ${rateLimitCounters.hits} + 1 END`,
            windowEndsAt: sql`CASE WHEN ${hasEnded} THEN ${newWindowEndsAt.toISOString()}::timestamptz ELSE ${rateLimitCounters.windowEndsAt} END`,
          },
        })
        .returning({ hits: rateLimitCounters.hits, windowEndsAt: rateLimitCounters.windowEndsAt });
      if (!row) throw new Error(`Rate limit upsert for ${key} returned no row`);
      return row;
    },

    /**
     * Counts one hit for `key` unless the key must still wait: after `freeHits` hits, each next
     * hit waits `firstDelay`, then twice that, and so on up to `maxDelay`, counted from the
     * previous hit. The row keeps the count in `hits` and `window_ends_at` = last hit +
     * `forgetAfter` (so the last hit's time is derived, and housekeeping drops a key a while
     * after its last hit). Deciding and counting is one INSERT ... ON CONFLICT DO UPDATE ...
     * WHERE, so simultaneous hits from any number of processes are counted exactly.
     */
    async hitWithBackoff(key: string, now: Date, policy: BackoffPolicy): Promise<BackoffHit> {
      const nowSql = sql`${now.toISOString()}::timestamptz`;
      const forgetAt = new Date(now.getTime() + policy.forgetAfterMilliseconds);
      const { hits, windowEndsAt } = rateLimitCounters;
      const hasEnded = sql`${windowEndsAt} <= ${nowSql}`;
      // Doubling stops at 2^40: far past any sensible cap, and no overflow for a huge count.
      const waitMilliseconds = sql`CASE WHEN ${hits} < ${policy.freeHits}::integer THEN 0
        ELSE LEAST(
          ${policy.firstDelayMilliseconds}::double precision
            * power(2, LEAST(${hits} - ${policy.freeHits}::integer, 40)),
          ${policy.maxDelayMilliseconds}::double precision)
        END`;
      const nextHitAt = sql`${windowEndsAt}
        - ${policy.forgetAfterMilliseconds}::double precision * interval '1 millisecond'
        + ${waitMilliseconds} * interval '1 millisecond'`;

      // A row deleted or changed between the two statements below is simply tried again.
      for (let round = 0; round < 3; round += 1) {
        const counted = await db
          .insert(rateLimitCounters)
          .values({ key, hits: 1, windowEndsAt: forgetAt })
          .onConflictDoUpdate({
            target: rateLimitCounters.key,
            set: {
              hits: sql`CASE WHEN ${hasEnded} THEN 1 ELSE ${hits} + 1 END`,
              windowEndsAt: sql`${forgetAt.toISOString()}::timestamptz`,
            },
            setWhere: sql`${hasEnded} OR ${nextHitAt} <= ${nowSql}`,
          })
          .returning({ hits });
        if (counted.length > 0) return { allowed: true };

        const [waiting] = await db
          .select({ retryAt: sql`extract(epoch from ${nextHitAt}) * 1000`.mapWith(Number) })
          .from(rateLimitCounters)
          .where(and(eq(rateLimitCounters.key, key), gt(windowEndsAt, now)));
        if (waiting && waiting.retryAt > now.getTime()) {
          return { allowed: false, retryAt: new Date(waiting.retryAt) };
        }
      }
      return { allowed: false, retryAt: new Date(now.getTime() + policy.firstDelayMilliseconds) };
    },

    async clear(key: string): Promise<void> {
      await db.delete(rateLimitCounters).where(eq(rateLimitCounters.key, key));
    },

    /** Deletes every key that starts with `prefix` (compared as text: no LIKE wildcards). */
    async clearPrefix(prefix: string): Promise<void> {
      await db
        .delete(rateLimitCounters)
        .where(sql`starts_with(${rateLimitCounters.key}, ${prefix}::text)`);
    },

    async deleteEnded(now: Date): Promise<void> {
      await db.delete(rateLimitCounters).where(lte(rateLimitCounters.windowEndsAt, now));
    },
  };
}

export type RateLimitRepository = ReturnType<typeof createRateLimitRepository>;
