import { apiPaths } from '@fabric/contract';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TestDatabase } from '../test/support/databases.ts';

/** What the suite tried and what went wrong, for its one figures line. */
export const figures = { cells: 0, cases: 0, serverErrors: 0 };

export function figuresLine(): string {
  return `security: ${figures.cells} authorization cells, ${figures.cases} fuzz cases, ${figures.serverErrors} server errors\n`;
}

/**
 * Tables whose rows a rejected request may change by design: per-address and per-account
 * counters of attempts (rate limits, sign-in throttling) exist to count refused requests.
 */
const COUNTERS_OF_ATTEMPTS = new Set(['rate_limit_counters']);

/** Columns background work changes on its own (the mail dispatcher clears the pending flag). */
const BACKGROUND_COLUMNS: Record<string, string[]> = { notifications: ['is_email_pending'] };

/**
 * Pages a browser opens (not API calls): they answer a bad link with an HTML page that says what
 * went wrong, not with a JSON body. Their 4xx must still say something.
 */
const BROWSER_PAGES = new Set<string>([apiPaths.payment.sandboxOnboarding]);

let tableNames: string[] | undefined;

export interface Snapshot {
  /** The first transaction id not yet assigned: it moves whenever anything is written. */
  xmax: string;
  /** Per table: row count and a hash of every row. */
  tables: Record<string, string>;
}

/** Every row of every table (bar the counters of attempts), as one comparable value per table. */
export async function snapshotOf(database: TestDatabase): Promise<Snapshot> {
  const { db } = await database.connection();
  if (!tableNames) {
    const tables = await db.execute(
      sql`SELECT table_name AS name FROM information_schema.tables
          WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
    );
    tableNames = (tables as { rows: { name: string }[] }).rows
      .map((row) => row.name)
      .filter((name) => !COUNTERS_OF_ATTEMPTS.has(name));
  }
  const columns = tableNames.map((table) => {
    const dropped = (BACKGROUND_COLUMNS[table] ?? []).map((column) => ` - '${column}'`).join('');
    const row = `(to_jsonb(t)${dropped})::text`;
    return `(SELECT count(*)::text || ':' || md5(coalesce(string_agg(${row}, '|' ORDER BY ${row}), '')) FROM "${table}" t) AS "${table}"`;
  });
  const result = await db.execute(
    sql.raw(
      `SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS "xmax", ${columns.join(', ')}`,
    ),
  );
  const [row] = (result as { rows: Record<string, string>[] }).rows;
  const { xmax = '', ...tables } = row ?? {};
  return { xmax, tables };
}

async function currentXmax(database: TestDatabase): Promise<string> {
  const { db } = await database.connection();
  const result = await db.execute(
    sql`SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS xmax`,
  );
  return (result as { rows: { xmax: string }[] }).rows[0]?.xmax ?? '';
}

export interface Request {
  method: string;
  /** Path and query, e.g. /api/jobs?page=2 */
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** What the request tries, for failure messages. */
  label: string;
}

export interface Answer {
  status: number;
  contentType: string;
  text: string;
}

function show(body: Request['body']): string {
  if (body === undefined) return '';
  const text = typeof body === 'string' ? body : `<${body.length} bytes>`;
  return ` body ${text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text}`;
}

export function describeRequest(request: Request): string {
  const path = request.path.length > 300 ? `${request.path.slice(0, 300)}…` : request.path;
  return `${request.method} ${path} [${request.label}]${show(request.body)}`;
}

/** The `message` of an error body, or undefined when the body is not the contract's. */
export function messageOf(answer: Answer): unknown {
  try {
    const body = JSON.parse(answer.text) as unknown;
    return typeof body === 'object' && body !== null
      ? (body as Record<string, unknown>).message
      : undefined;
  } catch {
    return undefined;
  }
}

export function codeOf(answer: Answer): unknown {
  try {
    return (JSON.parse(answer.text) as Record<string, unknown>).code;
  } catch {
    return undefined;
  }
}

/**
 * Sends requests over real HTTP to the listening app (so event streams answer with their status
 * and real body limits and parsers apply), and checks every answer: never 5xx, every 4xx has a
 * message, a 4xx changes no row, nothing pollutes Object.prototype.
 */
export function createClient(baseUrl: string, database: TestDatabase) {
  async function send(request: Request): Promise<Answer> {
    let response: Response;
    try {
      response = await fetch(`${baseUrl}${request.path}`, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      throw new Error(`${describeRequest(request)} got no answer: ${String(error)}`, {
        cause: error,
      });
    }
    const contentType = response.headers.get('content-type') ?? '';
    if (contentType.startsWith('text/event-stream')) {
      // An open stream (GET /api/events): its status is the answer; hang up.
      await response.body?.cancel();
      return { status: response.status, contentType, text: '' };
    }
    return { status: response.status, contentType, text: await response.text() };
  }

  /** The last snapshot taken: still the state while nothing has been written since. */
  let last: Snapshot | undefined;

  async function stateNow(): Promise<Record<string, string>> {
    if (!last || (await currentXmax(database)) !== last.xmax) last = await snapshotOf(database);
    return last.tables;
  }

  /** Sends one request and checks what every answer must satisfy; returns the answer. */
  async function exchange(request: Request, kind: 'cell' | 'case'): Promise<Answer> {
    const before = await stateNow();
    const answer = await send(request);
    if (kind === 'cell') figures.cells += 1;
    else figures.cases += 1;
    const where = describeRequest(request);
    if (answer.status >= 500) figures.serverErrors += 1;
    expect(
      answer.status,
      `${where} answered ${answer.status}: ${answer.text.slice(0, 300)}`,
    ).toBeLessThan(500);
    expect(Object.hasOwn(Object.prototype, 'polluted'), `${where} polluted Object.prototype`).toBe(
      false,
    );
    if (answer.status >= 400) {
      const isPage =
        BROWSER_PAGES.has(request.path.split('?')[0] ?? '') &&
        answer.contentType.startsWith('text/html');
      const message = isPage ? answer.text : messageOf(answer);
      expect(
        typeof message === 'string' && message.trim() !== '',
        `${where} answered ${answer.status} without a message: ${answer.text.slice(0, 300)}`,
      ).toBe(true);
      expect(await stateNow(), `${where}: rows changed after a ${answer.status}`).toEqual(before);
    }
    return answer;
  }

  return { send, exchange };
}

export type Client = ReturnType<typeof createClient>;
