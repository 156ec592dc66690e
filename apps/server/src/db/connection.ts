import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzleNodePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePostgres } from 'drizzle-orm/node-postgres/migrator';
import { sql } from 'drizzle-orm';
import pg from 'pg';

/** What repositories query: the same type whichever driver is underneath (transactions included). */
export type Database = PgDatabase<PgQueryResultHKT>;

export type DatabaseTarget =
  | {
      driver: 'pglite';
      /** A folder on disk, or undefined for an in-memory database. */ dataDir?: string;
    }
  | { driver: 'postgres'; url: string };

/** Stops one listener; the connection stays open for the others. */
export type Unlisten = () => Promise<void>;

export interface DatabaseConnection {
  readonly driver: DatabaseTarget['driver'];
  readonly db: Database;
  /**
   * Calls `onNotification` for every NOTIFY on `channel`, from any process sharing the database.
   * PostgreSQL: one dedicated connection per DatabaseConnection, reconnected when lost; since
   * notifications may have been missed meanwhile, listeners are also called once on reconnect.
   */
  listen(channel: string, onNotification: (payload: string) => void): Promise<Unlisten>;
  /** NOTIFY `channel` (delivered to listeners of every process, this one included). */
  notify(channel: string, payload: string): Promise<void>;
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

const LISTENER_RECONNECT_MILLISECONDS = 1000;

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * LISTEN needs a connection of its own (pool connections come and go), so PostgreSQL listeners
 * share one pg.Client, opened on first use. When it cannot connect or is lost, it tries again
 * every second in the background; listen() never fails, so a server whose database is down still
 * starts (and answers 503 on /api/health).
 */
function createPostgresListener(url: string) {
  const listeners = new Map<string, Set<(payload: string) => void>>();
  let client: pg.Client | undefined;
  let connecting: Promise<void> | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let isClosed = false;

  function callAll(channel: string, payload: string) {
    for (const listener of listeners.get(channel) ?? []) listener(payload);
  }

  function retryLater() {
    if (isClosed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void connect().then(() => {
        // Anything sent while the connection was down was missed: let every listener look again.
        if (client) for (const channel of listeners.keys()) callAll(channel, '');
      });
    }, LISTENER_RECONNECT_MILLISECONDS);
    retryTimer.unref();
  }

  function onLost(lost: pg.Client) {
    if (client !== lost) return;
    client = undefined;
    lost.end().catch(() => undefined);
    retryLater();
  }

  /** Resolves once listening on every channel, or after a failed try (a retry is scheduled). */
  function connect(): Promise<void> {
    if (client || isClosed) return Promise.resolve();
    connecting ??= (async () => {
      const next = new pg.Client({ connectionString: url });
      next.on('notification', (message) => callAll(message.channel, message.payload ?? ''));
      next.on('error', () => onLost(next));
      next.on('end', () => onLost(next));
      try {
        await next.connect();
        client = next;
        for (const channel of listeners.keys()) {
          await next.query(`LISTEN ${quoteIdentifier(channel)}`);
        }
      } catch {
        if (client === next) client = undefined;
        await next.end().catch(() => undefined);
        retryLater();
      }
    })().finally(() => {
      connecting = undefined;
    });
    return connecting;
  }

  return {
    async listen(channel: string, onNotification: (payload: string) => void): Promise<Unlisten> {
      const channelListeners = listeners.get(channel) ?? new Set();
      const isNewChannel = !listeners.has(channel);
      listeners.set(channel, channelListeners);
      channelListeners.add(onNotification);
      const wasConnected = client !== undefined;
      await connect();
      const connected = client;
      if (wasConnected && isNewChannel && connected) {
        await connected.query(`LISTEN ${quoteIdentifier(channel)}`).catch(() => onLost(connected));
      }
      return async () => {
        channelListeners.delete(onNotification);
        if (channelListeners.size > 0 || listeners.get(channel) !== channelListeners) return;
        listeners.delete(channel);
        await client?.query(`UNLISTEN ${quoteIdentifier(channel)}`).catch(() => undefined);
      };
    },
    async close() {
      isClosed = true;
      if (retryTimer) clearTimeout(retryTimer);
      await connecting;
      const open = client;
      client = undefined;
      await open?.end().catch(() => undefined);
    },
  };
}

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
      // PGlite is one in-process connection that delivers its own notifications.
      async listen(channel, onNotification) {
        const unlisten = await client.listen(channel, onNotification);
        return () => unlisten();
      },
      async notify(channel, payload) {
        await db.execute(sql`SELECT pg_notify(${channel}, ${payload})`);
      },
      close: () => client.close(),
    };
  }

  const pool = new pg.Pool({ connectionString: target.url, max: 10 });
  // An idle client losing its connection emits 'error' on the pool; without a listener that
  // would crash the process. The next query simply gets a fresh connection.
  pool.on('error', () => undefined);
  const db = drizzleNodePostgres({ client: pool });
  const listener = createPostgresListener(target.url);
  return {
    driver: 'postgres',
    db,
    listen: (channel, onNotification) => listener.listen(channel, onNotification),
    async notify(channel, payload) {
      await db.execute(sql`SELECT pg_notify(${channel}, ${payload})`);
    },
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
    async close() {
      await listener.close();
      await pool.end();
    },
  };
}
