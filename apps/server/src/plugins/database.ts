import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../config/env.ts';
import { openDatabase, type DatabaseConnection } from '../db/connection.ts';

declare module 'fastify' {
  interface FastifyInstance {
    database: DatabaseConnection;
  }
}

/**
 * Opens the database the config names (PostgreSQL when DATABASE_URL is set, else PGlite in
 * DATA_DIR/pglite), applies pending migrations and decorates `app.database`. A connection passed
 * in by the caller (tests share one between apps) is used as is and left open on close.
 */
export async function registerDatabase(
  app: FastifyInstance,
  options: { config: AppConfig; connection?: DatabaseConnection },
): Promise<{ connection: DatabaseConnection; isOwned: boolean }> {
  if (options.connection) {
    app.decorate('database', options.connection);
    return { connection: options.connection, isOwned: false };
  }
  const { databaseUrl, dataDir } = options.config;
  const connection = await openDatabase(
    databaseUrl
      ? { driver: 'postgres', url: databaseUrl }
      : { driver: 'pglite', dataDir: path.join(dataDir, 'pglite') },
  );
  try {
    await connection.migrate();
  } catch (error) {
    await connection.close();
    throw error;
  }
  app.decorate('database', connection);
  app.log.info(
    { driver: connection.driver },
    connection.driver === 'postgres' ? 'Using PostgreSQL' : `Using PGlite in ${dataDir}/pglite`,
  );
  return { connection, isOwned: true };
}
