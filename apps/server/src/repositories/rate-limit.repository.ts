import { and, eq, gt, lte, sql } from 'drizzle-orm';
import type { Database } from '../db/connection.ts';
import { rateLimitCounters } from '../db/schema.ts';

export interface RateLimitCount {
  hits: number;
  windowEndsAt: Date;
}

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

    /** Takes back one hit of the current window (a login that turned out to be right). */
    async undoHit(key: string, now: Date): Promise<void> {
      await db
        .update(rateLimitCounters)
        .set({ hits: sql`GREATEST(${rateLimitCounters.hits} - 1, 0)` })
        .where(and(eq(rateLimitCounters.key, key), gt(rateLimitCounters.windowEndsAt, now)));
    },

    async clear(key: string): Promise<void> {
      await db.delete(rateLimitCounters).where(eq(rateLimitCounters.key, key));
    },

    async deleteEnded(now: Date): Promise<void> {
      await db.delete(rateLimitCounters).where(lte(rateLimitCounters.windowEndsAt, now));
    },
  };
}

export type RateLimitRepository = ReturnType<typeof createRateLimitRepository>;
