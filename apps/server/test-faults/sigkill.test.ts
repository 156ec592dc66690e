import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiPaths, IDEMPOTENCY_KEY_HEADER } from '@fabric/contract';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { afterAll, expect, inject, it } from 'vitest';
import { openDatabase, type DatabaseConnection } from '../src/db/connection.ts';
import { creditPurchases, jobs, ledgerTransactions } from '../src/db/schema.ts';
import { createRepositories } from '../src/repositories/index.ts';
import { TEST_PASSWORD, uniqueEmail } from '../test/support/auth.ts';
import { describeEachDatabase, TEST_JWT_SECRET } from '../test/support/databases.ts';
import { databaseLabel, recordFault } from './support/report.ts';

// SIGKILL mid-burst: the real server (node --import tsx src/server.ts) on PGlite in a data folder
// or on a fresh PostgreSQL database takes a burst of sign-ups, credit purchases and job submits
// (purchases and submits under Idempotency-Keys, some sent twice at once) over HTTP on 127.0.0.1,
// and is killed with SIGKILL while requests are in flight. Restarted on the same data, it must
// still hold every operation it acknowledged, exactly once; then every operation of the burst is
// retried with its key and each must have happened exactly once. Two bursts, two kills, per
// database.

const SERVER_DIR = fileURLToPath(new URL('..', import.meta.url));
const SERVER_ENTRY = path.join(SERVER_DIR, 'src', 'server.ts');
const STARTUP_TIMEOUT_MS = 90_000;
const REQUEST_TIMEOUT_MS = 30_000;
const BURSTS = 2;
const OPERATIONS_PER_BURST = 60;
/** Requests in flight at once during a burst. */
const CONCURRENCY = 6;
/** The kill comes once this share of a burst has been acknowledged. */
const KILL_AFTER_SHARE = 0.4;
const INITIAL_CREDITS_USD = 300;
const HOLD_CENTS = 240;
const JOB = { job_type: 'prime_sieve', params: { limit: 1000 }, priority: 0 };

type Operation =
  | { kind: 'sign-up'; email: string }
  | { kind: 'top-up'; key: string; cents: number }
  | { kind: 'submit'; key: string };

interface Answer {
  status: number;
  body: unknown;
}

interface ServerProcess {
  baseUrl: string;
  child: ChildProcess;
  output: () => string;
}

const running = new Set<ChildProcess>();

afterAll(() => {
  // A failed test must not leave a server behind.
  for (const child of running) child.kill('SIGKILL');
});

async function startServer(environment: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER_ENTRY], {
    cwd: SERVER_DIR,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      JWT_SECRET: TEST_JWT_SECRET,
      ACCESS_TOKEN_TTL_SECONDS: '86400',
      AUTH_RATE_LIMIT_PER_IP: '1000000',
      ...environment,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const port = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`The server did not start within ${STARTUP_TIMEOUT_MS} ms:\n${output}`));
    }, STARTUP_TIMEOUT_MS);
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`The server exited (${String(code)}) before listening:\n${output}`));
    };
    const onData = () => {
      const match = /Fabric is running at http:\/\/localhost:(\d+)/.exec(output);
      if (!match?.[1]) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      child.stdout.off('data', onData);
      resolve(match[1]);
    };
    child.once('exit', onExit);
    child.stdout.on('data', onData);
  });
  return { baseUrl: `http://127.0.0.1:${port}`, child, output: () => output };
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

async function stop(server: ServerProcess, signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
  const ended = exited(server.child);
  server.child.kill(signal);
  await ended;
}

async function call(
  server: ServerProcess,
  method: 'GET' | 'POST',
  url: string,
  options: { token?: string; key?: string; body?: unknown } = {},
): Promise<Answer> {
  const response = await fetch(`${server.baseUrl}${url}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.key ? { [IDEMPOTENCY_KEY_HEADER]: options.key } : {}),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
}

function send(server: ServerProcess, token: string, operation: Operation): Promise<Answer> {
  switch (operation.kind) {
    case 'sign-up':
      return call(server, 'POST', apiPaths.auth.register, {
        body: { email: operation.email, password: TEST_PASSWORD, role: 'enterprise' },
      });
    case 'top-up':
      return call(server, 'POST', apiPaths.payment.addCredits, {
        token,
        key: operation.key,
        body: { amount: operation.cents / 100 },
      });
    case 'submit':
      return call(server, 'POST', apiPaths.jobs.submit, { token, key: operation.key, body: JOB });
  }
}

/** The answer that acknowledges the operation (done, now or before). */
function isAcknowledged(operation: Operation, answer: Answer): boolean {
  switch (operation.kind) {
    case 'sign-up':
      return answer.status === 201;
    case 'top-up':
      return answer.status === 200 && (answer.body as { status?: string }).status === 'completed';
    case 'submit':
      return answer.status === 201;
  }
}

const jobIdOf = (answer: Answer) => (answer.body as { id: string }).id;

async function allPages<T>(
  server: ServerProcess,
  token: string,
  url: string,
  itemsOf: (body: unknown) => T[],
): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await call(server, 'GET', `${url}?page=${page}&page_size=100`, { token });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const found = itemsOf(answer.body);
    items.push(...found);
    if (found.length < 100) return items;
  }
}

describeEachDatabase('SIGKILL of the server mid-burst', (database) => {
  const reportDir = inject('faultsReportDir');

  it(
    'keeps every acknowledged operation exactly once across kills and retries',
    { timeout: 300_000 },
    async () => {
      const dataDir = await database.temporaryDirectory();
      const environment: Record<string, string> = { DATA_DIR: dataDir };
      const databaseUrl = database.ownedDatabaseConfig().databaseUrl;
      if (databaseUrl) environment.DATABASE_URL = databaseUrl;

      let server = await startServer(environment);
      const email = uniqueEmail('burst');
      const signedUp = await call(server, 'POST', apiPaths.auth.register, {
        body: { email, password: TEST_PASSWORD, role: 'enterprise' },
      });
      expect(signedUp.status, JSON.stringify(signedUp.body)).toBe(201);
      const { access_token: token, user_id: userId } = signedUp.body as {
        access_token: string;
        user_id: string;
      };
      const initial = await call(server, 'POST', apiPaths.payment.addCredits, {
        token,
        key: 'initial',
        body: { amount: INITIAL_CREDITS_USD },
      });
      expect(initial.status, JSON.stringify(initial.body)).toBe(200);

      const operations: Operation[] = [];
      /** What the first acknowledgement said: the submit's job id, or true. */
      const firstAcknowledgement = new Map<Operation, Answer>();
      let acknowledgedBeforeKill = 0;
      let lost = 0;
      let kills = 0;

      for (let burst = 0; burst < BURSTS; burst += 1) {
        const ops: Operation[] = Array.from({ length: OPERATIONS_PER_BURST }, (_, index) => {
          const n = burst * OPERATIONS_PER_BURST + index;
          if (index % 10 === 9) return { kind: 'sign-up', email: uniqueEmail(`signup-${n}`) };
          // Unique amounts: the purchase history tells which one is which.
          if (index % 2 === 0) return { kind: 'top-up', key: `top-up-${n}`, cents: 100 + n };
          return { kind: 'submit', key: `submit-${n}` };
        });
        operations.push(...ops);

        // The burst: CONCURRENCY requests in flight; a fifth of the keyed ones sent twice at once.
        // The kill comes when KILL_AFTER_SHARE of the burst has been acknowledged.
        const current = server;
        let next = 0;
        let acknowledgedNow = 0;
        let inFlight = 0;
        let inFlightAtKill = 0;
        /** Set once the kill is sent; read through isKilled(), which no check narrows away. */
        const kill: { done?: Promise<void> } = {};
        const isKilled = () => kill.done !== undefined;
        const worker = async () => {
          while (!isKilled() && next < ops.length) {
            const index = next;
            next += 1;
            const operation = ops[index] as Operation;
            const copies = operation.kind !== 'sign-up' && index % 5 === 0 ? 2 : 1;
            inFlight += copies;
            const answers = await Promise.all(
              Array.from({ length: copies }, () =>
                send(current, token, operation).catch(() => undefined),
              ),
            );
            inFlight -= copies;
            const acknowledged = answers.find(
              (answer): answer is Answer =>
                answer !== undefined && isAcknowledged(operation, answer),
            );
            if (!acknowledged) continue;
            // An answer that arrives after the kill was sent counts too: the server did send it.
            firstAcknowledgement.set(operation, acknowledged);
            acknowledgedNow += 1;
            if (!isKilled() && acknowledgedNow >= Math.ceil(ops.length * KILL_AFTER_SHARE)) {
              inFlightAtKill = inFlight;
              kill.done = stop(current, 'SIGKILL');
            }
          }
        };
        await Promise.all(Array.from({ length: CONCURRENCY }, worker));
        expect(kill.done, 'the burst ended before the kill').toBeDefined();
        await kill.done;
        expect(inFlightAtKill, 'requests in flight when the server was killed').toBeGreaterThan(0);
        kills += 1;
        acknowledgedBeforeKill += acknowledgedNow;

        // Restarted on the same data: everything acknowledged is there, once.
        server = await startServer(environment);
        const purchases = await allPages(server, token, apiPaths.payment.transactions, (body) =>
          (body as { transactions: { kind: string; amount: number }[] }).transactions.filter(
            (transaction) => transaction.kind === 'credit_purchase',
          ),
        );
        const jobIds = new Set(
          await allPages(server, token, apiPaths.jobs.list, (body) =>
            (body as { jobs: { id: string }[] }).jobs.map((job) => job.id),
          ),
        );
        for (const operation of ops) {
          const acknowledged = firstAcknowledgement.get(operation);
          if (!acknowledged) continue;
          if (operation.kind === 'top-up') {
            const found = purchases.filter(
              (purchase) => Math.round(purchase.amount * 100) === operation.cents,
            ).length;
            if (found === 0) lost += 1;
          } else if (operation.kind === 'submit') {
            if (!jobIds.has(jobIdOf(acknowledged))) lost += 1;
          } else {
            const login = await call(server, 'POST', apiPaths.auth.login, {
              body: { email: operation.email, password: TEST_PASSWORD },
            });
            if (login.status !== 200) lost += 1;
          }
        }

        // Every operation of the burst again, with its key: each happens (or had happened) once.
        let retry = 0;
        await Promise.all(
          Array.from({ length: CONCURRENCY }, async () => {
            while (retry < ops.length) {
              const operation = ops[retry] as Operation;
              retry += 1;
              const answer = await send(server, token, operation);
              const earlier = firstAcknowledgement.get(operation);
              if (operation.kind === 'sign-up') {
                // Acknowledged before: the account exists (409); else it is created now or was then.
                if (earlier) expect(answer.status).toBe(409);
                else expect([201, 409], JSON.stringify(answer.body)).toContain(answer.status);
                if (!earlier) firstAcknowledgement.set(operation, answer);
                continue;
              }
              expect(isAcknowledged(operation, answer), JSON.stringify(answer.body)).toBe(true);
              if (operation.kind === 'submit' && earlier) {
                expect(jobIdOf(answer)).toBe(jobIdOf(earlier));
              }
              if (!earlier) firstAcknowledgement.set(operation, answer);
            }
          }),
        );
      }

      // Every operation of both bursts, exactly once, as the API tells it.
      const purchases = await allPages(server, token, apiPaths.payment.transactions, (body) =>
        (body as { transactions: { kind: string; amount: number }[] }).transactions.filter(
          (transaction) => transaction.kind === 'credit_purchase',
        ),
      );
      const listedJobs = await allPages(server, token, apiPaths.jobs.list, (body) =>
        (body as { jobs: { id: string }[] }).jobs.map((job) => job.id),
      );
      const topUps = operations.filter(
        (operation): operation is Extract<Operation, { kind: 'top-up' }> =>
          operation.kind === 'top-up',
      );
      const submits = operations.filter((operation) => operation.kind === 'submit');
      const signUps = operations.filter((operation) => operation.kind === 'sign-up');
      const timesFound = topUps.map(
        (operation) =>
          purchases.filter((purchase) => Math.round(purchase.amount * 100) === operation.cents)
            .length,
      );
      const submittedIds = new Set(
        submits.map((operation) => jobIdOf(firstAcknowledgement.get(operation) as Answer)),
      );
      const doubled =
        timesFound.filter((times) => times > 1).length +
        Math.max(0, listedJobs.length - submittedIds.size) +
        Math.max(0, purchases.length - (topUps.length + 1));
      recordFault(reportDir, {
        section: 'sigkill',
        database: databaseLabel(database.kind),
        operations: operations.length,
        acknowledged: operations.filter((operation) => firstAcknowledgement.has(operation)).length,
        acknowledgedBeforeKill,
        kills,
        lost,
        doubled,
      });
      expect({ lost, doubled }).toEqual({ lost: 0, doubled: 0 });
      expect(timesFound.every((times) => times === 1)).toBe(true);
      expect(purchases).toHaveLength(topUps.length + 1);
      expect(submittedIds.size).toBe(submits.length);
      expect([...listedJobs].sort()).toEqual([...submittedIds].sort());
      for (const operation of signUps) {
        const login = await call(server, 'POST', apiPaths.auth.login, {
          body: { email: operation.email, password: TEST_PASSWORD },
        });
        expect(login.status, operation.email).toBe(200);
      }
      const balance = await call(server, 'GET', apiPaths.payment.balance, { token });
      const { credits_balance: credits, held_credits: held } = balance.body as {
        credits_balance: number;
        held_credits: number;
      };
      const boughtCents =
        INITIAL_CREDITS_USD * 100 + topUps.reduce((total, operation) => total + operation.cents, 0);
      expect(Math.round(held * 100)).toBe(submits.length * HOLD_CENTS);
      expect(Math.round(credits * 100) + Math.round(held * 100)).toBe(boughtCents);

      // And as the database tells it, after a clean shutdown: one purchase and one job per key,
      // one hold per job, and a sound ledger.
      await stop(server, 'SIGTERM');
      const connection: DatabaseConnection =
        database.kind === 'postgres'
          ? await database.connection()
          : await openDatabase({ driver: 'pglite', dataDir: path.join(dataDir, 'pglite') });
      try {
        const { db } = connection;
        const purchaseKeys = await db
          .select({
            key: creditPurchases.idempotencyKey,
            count: sql<number>`count(*)`.mapWith(Number),
          })
          .from(creditPurchases)
          .where(and(eq(creditPurchases.userId, userId), isNotNull(creditPurchases.idempotencyKey)))
          .groupBy(creditPurchases.idempotencyKey);
        expect(purchaseKeys).toHaveLength(topUps.length + 1);
        expect(purchaseKeys.every((row) => row.count === 1)).toBe(true);
        const jobKeys = await db
          .select({ key: jobs.idempotencyKey, count: sql<number>`count(*)`.mapWith(Number) })
          .from(jobs)
          .where(eq(jobs.ownerId, userId))
          .groupBy(jobs.idempotencyKey);
        expect(jobKeys).toHaveLength(submits.length);
        expect(jobKeys.every((row) => row.key !== null && row.count === 1)).toBe(true);
        const holds = await db
          .select({ count: sql<number>`count(*)`.mapWith(Number) })
          .from(ledgerTransactions)
          .innerJoin(jobs, eq(jobs.id, ledgerTransactions.jobId))
          .where(and(eq(jobs.ownerId, userId), eq(ledgerTransactions.kind, 'job_hold')));
        expect(holds[0]?.count).toBe(submits.length);
        expect(await createRepositories(db).ledger.audit()).toEqual([]);
      } finally {
        if (database.kind === 'pglite') await connection.close();
      }
    },
  );
});
