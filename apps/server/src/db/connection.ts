import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzleNodePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePostgres } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';

/** What repositories query: the same type whichever driver is underneath (transactions included). */
export type Database = PgDatabase<PgQueryResultHKT>;

export type DatabaseTarget =
  | {
      driver: 'pglite';
      /** A folder on disk, or undefined for an in-memory database. */ dataDir?: string;
    }
  | { driver: 'postgres'; url: string };

export interface DatabaseConnection {
  readonly driver: DatabaseTarget['driver'];
  readonly db: Database;
  /** Applies the committed migrations in apps/server/drizzle that this database has not seen yet. */
  migrate(): Promise<void>;
  close(): Promise<void>;
}

const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../drizzle', import.meta.url));

/**
 * Any fixed number works: it only has to be the same in every Fabric process, so that processes
 * starting together against one PostgreSQL apply migrations one at a time.
 */
const MIGRATION_LOCK_ID = 7_245_001;

export async function openDatabase(target: DatabaseTarget): Promise<DatabaseConnection> {
  if (target.driver === 'pglite') {
    if (target.dataDir !== undefined) await mkdir(target.dataDir, { recursive: true });
    const client = new PGlite(target.dataDir);
    await client.waitReady;
    const db = drizzlePglite({ client });
    return {
      driver: 'pglite',
      db,
      migrate: () => migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER }),
      close: () => client.close(),
    };
  }

  const pool = new pg.Pool({ connectionString: target.url, max: 10 });
  // An idle client losing its connection emits 'error' on the pool; without a listener that
  // would crash the process. The next query simply gets a fresh connection.
  pool.on('error', () => undefined);
  const db = drizzleNodePostgres({ client: pool });
  return {
    driver: 'postgres',
    db,
    async migrate() {
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
        try {
          await migrateNodePostgres(drizzleNodePostgres({ client }), {
            migrationsFolder: MIGRATIONS_FOLDER,
          });
        } finally {
          await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
        }
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
