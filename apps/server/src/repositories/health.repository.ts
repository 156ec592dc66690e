import { sql } from 'drizzle-orm';
import type { Database } from '../db/connection.ts';

export function createHealthRepository(db: Database) {
  return {
    /** Resolves when the database answers a trivial query. */
    async ping(): Promise<void> {
      await db.execute(sql`SELECT 1`);
    },
  };
}
