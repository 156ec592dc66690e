import { randomBytes } from 'node:crypto';
import pg from 'pg';

// PostgreSQL for the network tests: when it answers on 127.0.0.1:5432 (trust auth, database
// `test`), each suite gets a throw-away database; when it does not, those suites are skipped
// under a title that says so.

const ADMIN = {
  host: '127.0.0.1',
  port: 5432,
  database: 'test',
  user: 'postgres',
  connectionTimeoutMillis: 1500,
};

async function isReachable(): Promise<boolean> {
  const client = new pg.Client(ADMIN);
  client.on('error', () => undefined);
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export const isPostgresReachable = await isReachable();
export const POSTGRES_SKIPPED_TITLE =
  'PostgreSQL not reachable on 127.0.0.1:5432: PostgreSQL run skipped';

async function admin(sql: string) {
  const client = new pg.Client(ADMIN);
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function createPostgresDatabase(): Promise<{
  url: string;
  drop: () => Promise<void>;
}> {
  const name = `fabric_e2e_${randomBytes(6).toString('hex')}`;
  await admin(`CREATE DATABASE ${name}`);
  return {
    url: `postgres://postgres@127.0.0.1:5432/${name}`,
    drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
