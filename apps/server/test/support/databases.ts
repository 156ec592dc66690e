import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import { buildApp, type BuildAppOptions } from '../../src/app.ts';
import type { AppConfig } from '../../src/config/env.ts';
import { openDatabase, type DatabaseConnection } from '../../src/db/connection.ts';
import { createRecordingMailer } from './mailer.ts';

export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-signing';

/** Cheap argon2id parameters: tests check behaviour, not hashing cost. */
export const FAST_PASSWORD_HASHING = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

const POSTGRES = { host: '127.0.0.1', port: 5432, database: 'test' } as const;

async function findPostgresUser(): Promise<string | undefined> {
  for (const user of ['postgres', os.userInfo().username]) {
    const client = new pg.Client({ ...POSTGRES, user, connectionTimeoutMillis: 1500 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return user;
    } catch {
      // Not reachable, or this user may not connect: try the next, then give up.
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  return undefined;
}

/** The user PostgreSQL on 127.0.0.1:5432 accepts (trust auth), or undefined when it does not answer. */
export const postgresUser = await findPostgresUser();

export const POSTGRES_SKIPPED_TITLE =
  'PostgreSQL not reachable on 127.0.0.1:5432: PostgreSQL run skipped';

if (!postgresUser) {
  // The skipped suites below carry this title too; the warning makes it visible in any reporter.
  console.warn(POSTGRES_SKIPPED_TITLE);
}

export type DatabaseKind = 'pglite' | 'postgres';

export interface TestDatabase {
  readonly kind: DatabaseKind;
  /** The shared, migrated connection of this suite, opened on first use. */
  connection(): Promise<DatabaseConnection>;
  /**
   * Config that makes an app open its own connection to this suite's database (PostgreSQL) or
   * to a PGlite folder in its data dir: for tests of start-up and restarts.
   */
  ownedDatabaseConfig(): Partial<AppConfig>;
  /** Builds an app on the shared connection with test defaults; closed after the suite. */
  buildApp(options?: BuildAppOptions): Promise<FastifyInstance>;
  /** Builds an app exactly as given (plus test defaults), closed after the suite unless closed before. */
  buildAppWith(options: BuildAppOptions): Promise<FastifyInstance>;
  /** A fresh temporary directory, removed after the suite. */
  temporaryDirectory(): Promise<string>;
}

function useTestDatabase(kind: DatabaseKind): TestDatabase {
  let connection: DatabaseConnection | undefined;
  let postgresUrl: string | undefined;
  let databaseName: string | undefined;
  const apps: FastifyInstance[] = [];
  const directories: string[] = [];

  async function temporaryDirectory() {
    const directory = await mkdtemp(path.join(os.tmpdir(), 'fabric-test-'));
    directories.push(directory);
    return directory;
  }

  async function adminQuery(sql: string) {
    const client = new pg.Client({ ...POSTGRES, user: postgresUser });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    if (kind === 'postgres') {
      // Each suite gets its own database, so suites running in parallel never see each other.
      databaseName = `fabric_test_${randomBytes(6).toString('hex')}`;
      await adminQuery(`CREATE DATABASE ${databaseName}`);
      postgresUrl = `postgres://${encodeURIComponent(postgresUser ?? 'postgres')}@${POSTGRES.host}:${POSTGRES.port}/${databaseName}`;
    }
  });

  // Opened on first use: a PGlite takes seconds to boot, and some suites never need the shared one.
  let opening: Promise<DatabaseConnection> | undefined;
  function getConnection(): Promise<DatabaseConnection> {
    opening ??= (async () => {
      const opened =
        kind === 'pglite'
          ? await openDatabase({ driver: 'pglite' })
          : await openDatabase({ driver: 'postgres', url: postgresUrl ?? '' });
      connection = opened;
      await opened.migrate();
      return opened;
    })();
    return opening;
  }

  afterAll(async () => {
    for (const app of apps) await app.close();
    await connection?.close();
    if (databaseName) await adminQuery(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
    for (const directory of directories) await rm(directory, { recursive: true, force: true });
  });

  async function buildAppWith(options: BuildAppOptions) {
    const app = await buildApp({
      environment: {},
      mailer: createRecordingMailer(),
      ...options,
      config: {
        logLevel: 'silent',
        jwtSecret: TEST_JWT_SECRET,
        dataDir: await temporaryDirectory(),
        webDistDir: path.join(os.tmpdir(), 'fabric-test-no-web-dist'),
        publicUrl: 'http://fabric.test',
        passwordHashing: FAST_PASSWORD_HASHING,
        // High enough that suites not about rate limits never meet them.
        authRateLimitPerIp: 10_000,
        // Suites share one provider across many nodes and leases; the limits have their own test.
        maxNodesPerProvider: 10_000,
        providerLeasesPerMinute: 1_000_000,
        // One node's result completes a job; replication has its own test.
        replicationShare: 0,
        replicationTrustedAfterJobs: 0,
        ...options.config,
      },
    });
    apps.push(app);
    return app;
  }

  return {
    kind,
    connection: getConnection,
    ownedDatabaseConfig() {
      return kind === 'postgres' ? { databaseUrl: postgresUrl } : { databaseUrl: undefined };
    },
    async buildApp(options = {}) {
      return buildAppWith({ ...options, database: await getConnection() });
    },
    buildAppWith,
    temporaryDirectory,
  };
}

/**
 * Declares a suite once and runs it on an in-memory PGlite and, when it answers on
 * 127.0.0.1:5432, on a fresh PostgreSQL database. When PostgreSQL does not answer, the second
 * run shows up as a skipped suite saying so.
 */
export function describeEachDatabase(name: string, body: (database: TestDatabase) => void): void {
  describe(`${name} [PGlite]`, () => {
    body(useTestDatabase('pglite'));
  });
  if (postgresUser) {
    describe(`${name} [PostgreSQL]`, () => {
      body(useTestDatabase('postgres'));
    });
  } else {
    describe.skip(`${POSTGRES_SKIPPED_TITLE}: ${name}`, () => {
      body(useTestDatabase('postgres'));
    });
  }
}

/** For suites that are not about the database: PGlite only. */
export function describeWithPglite(name: string, body: (database: TestDatabase) => void): void {
  describe(name, () => {
    body(useTestDatabase('pglite'));
  });
}
