import {
  agentPaths,
  apiPaths,
  authResponseSchema,
  enrollmentCodeResponseSchema,
  ERROR_CODES,
  errorBodySchema,
  jobSchema,
  type Lease,
} from '@fabric/contract';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AppConfig } from '../src/config/env.ts';
import { bearer, registerUser, uniqueEmail, uniqueIp } from './support/auth.ts';
import { createManualClock } from './support/clock.ts';
import {
  deviceHeader,
  enrollNode,
  leaseJob,
  registerEnterprise,
  registerProvider,
  submitJob,
} from './support/compute-network.ts';
import {
  describeEachDatabase,
  describeWithPglite,
  type TestDatabase,
} from './support/databases.ts';

// Bad input that used to answer 500 and now answers 400 with the contract's error body, changing
// nothing: text PostgreSQL cannot store (NUL in text and jsonb, lone surrogates in jsonb), user
// strings that name Object.prototype's members, and months outside 2000..2100.

const NUL = '\u0000';
const LONE_HIGH_SURROGATE = '\ud800';
const LONE_LOW_SURROGATE = '\udc00';

/**
 * The raw JSON text of a body. JSON.stringify writes NUL and lone surrogates as \u escapes, so
 * they reach the server exactly as a hostile client sends them, through the real JSON parser.
 */
function rawJson(body: unknown): string {
  const text = JSON.stringify(body);
  expect(text).toMatch(/\\u(0000|d[89a-f][0-9a-f]{2})/);
  return text;
}

/** Everything a rejected request could have changed, as one comparable value. */
async function snapshotOf(database: TestDatabase): Promise<unknown> {
  const { db } = await database.connection();
  const tables = [
    'users',
    'nodes',
    'jobs',
    'job_attempts',
    'enrollment_codes',
    'ledger_transactions',
    'ledger_entries',
  ];
  const result = await db.execute(
    sql.raw(
      `SELECT ${tables
        .map(
          (table) =>
            `(SELECT count(*)::text || ':' || md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) FROM ${table} t) AS ${table}`,
        )
        .join(', ')}`,
    ),
  );
  return (result as { rows: unknown[] }).rows;
}

/** The contract's error body with a message, and the field at fault when one is expected. */
function expectRejected(
  response: { statusCode: number; body: string; json: () => unknown },
  field?: string,
) {
  expect(response.statusCode, response.body).toBe(400);
  const body = errorBodySchema.parse(response.json());
  expect(body.message.length).toBeGreaterThan(0);
  if (field !== undefined) expect(body.field).toBe(field);
  return body;
}

describeEachDatabase('input hardening: bad input answers 400, never 500', (database) => {
  let app: FastifyInstance;
  const clock = createManualClock(new Date('2026-11-22T10:00:00.000Z'));
  let enterprise: string;
  let provider: string;
  let deviceToken: string;
  let leased: Lease;
  let enrollmentCode: string;

  beforeAll(async () => {
    app = await database.buildApp({ clock: clock.now });
    enterprise = await registerEnterprise(app);
    provider = await registerProvider(app);
    ({ deviceToken } = await enrollNode(app, provider));
    await submitJob(app, enterprise, { job_type: 'prime_sieve', params: { limit: 30 } });
    leased = await leaseJob(app, deviceToken);
    const code = await app.inject({
      method: 'POST',
      url: apiPaths.nodes.enrollmentCodes,
      headers: bearer(provider),
    });
    expect(code.statusCode, code.body).toBe(201);
    enrollmentCode = enrollmentCodeResponseSchema.parse(code.json()).code;
  });

  const device = (fields: Record<string, unknown> = {}) => ({
    device_id: 'device-input-hardening',
    name: 'Lab workstation',
    hardware_info: { cpu: 'Test CPU', cores: 4, memory: '8 GB', os: 'linux', arch: 'x64' },
    supported_job_types: ['fibonacci'],
    agent_version: '0.1.0',
    ...fields,
  });
  const hardware = (fields: Record<string, unknown>) => ({
    hardware_info: { cpu: 'Test CPU', cores: 4, ...fields },
  });

  interface Case {
    /** What is sent where. */
    what: string;
    request: () => InjectOptions;
    field: string;
  }

  const register = (fields: Record<string, unknown>): InjectOptions => ({
    method: 'POST',
    url: apiPaths.auth.register,
    remoteAddress: uniqueIp(),
    headers: { 'content-type': 'application/json' },
    payload: rawJson({
      email: uniqueEmail(),
      password: 'correct horse battery',
      role: 'enterprise',
      ...fields,
    }),
  });
  const profile = (fields: Record<string, unknown>): InjectOptions => ({
    method: 'PUT',
    url: apiPaths.auth.profile,
    headers: { ...bearer(enterprise), 'content-type': 'application/json' },
    payload: rawJson(fields),
  });
  const agentRegister = (fields: Record<string, unknown>): InjectOptions => ({
    method: 'POST',
    url: agentPaths.register,
    headers: { ...bearer(provider), 'content-type': 'application/json' },
    payload: rawJson(device(fields)),
  });
  const agentEnroll = (fields: Record<string, unknown>): InjectOptions => ({
    method: 'POST',
    url: agentPaths.enroll,
    remoteAddress: uniqueIp(),
    headers: { 'content-type': 'application/json' },
    payload: rawJson({ ...device(fields), enrollment_code: enrollmentCode }),
  });
  const deviceCall = (url: () => string, body: () => Record<string, unknown>) => () =>
    ({
      method: 'POST',
      url: url(),
      headers: { ...deviceHeader(deviceToken), 'content-type': 'application/json' },
      payload: rawJson(body()),
    }) satisfies InjectOptions;
  const submit = (jobType: string, params: unknown): InjectOptions => ({
    method: 'POST',
    url: apiPaths.jobs.submit,
    headers: { ...bearer(enterprise), 'content-type': 'application/json' },
    payload: rawJson({ job_type: jobType, params }),
  });

  const cases: Case[] = [
    ...(['name', 'organization_name', 'domain', 'industry'] as const).flatMap((field) => [
      {
        what: `sign-up ${field} with NUL`,
        request: () => register({ [field]: `Acme${NUL}` }),
        field,
      },
      {
        what: `profile ${field} with NUL`,
        request: () => profile({ [field]: `Acme${NUL}` }),
        field,
      },
    ]),
    {
      what: 'sign-up name with a lone surrogate',
      request: () => register({ name: `Ada ${LONE_HIGH_SURROGATE}` }),
      field: 'name',
    },
    {
      what: 'profile domain with a lone low surrogate',
      request: () => profile({ domain: `${LONE_LOW_SURROGATE}example.com` }),
      field: 'domain',
    },
    {
      what: 'agent register name with NUL',
      request: () => agentRegister({ name: `Node${NUL}` }),
      field: 'name',
    },
    {
      what: 'agent register agent_version with NUL',
      request: () => agentRegister({ agent_version: `0.1.0${NUL}` }),
      field: 'agent_version',
    },
    ...(['cpu', 'memory', 'os', 'arch'] as const).map((field) => ({
      what: `agent register hardware_info.${field} with NUL`,
      request: () => agentRegister(hardware({ [field]: `x${NUL}` })),
      field: `hardware_info.${field}`,
    })),
    {
      what: 'agent register hardware_info.cpu with a lone surrogate',
      request: () => agentRegister(hardware({ cpu: `CPU ${LONE_HIGH_SURROGATE}` })),
      field: 'hardware_info.cpu',
    },
    {
      what: 'agent enroll hardware_info.cpu with NUL',
      request: () => agentEnroll(hardware({ cpu: `CPU${NUL}` })),
      field: 'hardware_info.cpu',
    },
    {
      what: 'agent enroll name with a lone surrogate',
      request: () => agentEnroll({ name: `Node ${LONE_LOW_SURROGATE}` }),
      field: 'name',
    },
    {
      what: 'heartbeat hardware_info.cpu with NUL',
      request: deviceCall(
        () => agentPaths.heartbeat,
        () => hardware({ cpu: `CPU${NUL}` }),
      ),
      field: 'hardware_info.cpu',
    },
    {
      what: 'heartbeat hardware_info.os with a lone surrogate',
      request: deviceCall(
        () => agentPaths.heartbeat,
        () => hardware({ os: `linux ${LONE_HIGH_SURROGATE}` }),
      ),
      field: 'hardware_info.os',
    },
    {
      what: 'progress message with NUL',
      request: deviceCall(
        () => agentPaths.progress(leased.job_id),
        () => ({ lease_id: leased.lease_id, progress: 0.5, message: `half${NUL}` }),
      ),
      field: 'message',
    },
    {
      what: 'progress message with a lone surrogate',
      request: deviceCall(
        () => agentPaths.progress(leased.job_id),
        () => ({ lease_id: leased.lease_id, progress: 0.5, message: `half${LONE_HIGH_SURROGATE}` }),
      ),
      field: 'message',
    },
    {
      what: 'fail error with NUL',
      request: deviceCall(
        () => agentPaths.fail(leased.job_id),
        () => ({ lease_id: leased.lease_id, error: `broke${NUL}`, retryable: false }),
      ),
      field: 'error',
    },
    {
      what: 'fail error with a lone surrogate',
      request: deviceCall(
        () => agentPaths.fail(leased.job_id),
        () => ({ lease_id: leased.lease_id, error: `broke${LONE_LOW_SURROGATE}`, retryable: true }),
      ),
      field: 'error',
    },
    ...(['transformer_inference', 'llm_inference'] as const).map((jobType) => ({
      what: `${jobType} params value with NUL`,
      request: () => submit(jobType, { prompt: `Hello${NUL}` }),
      field: 'params.prompt',
    })),

    {
      what: 'llm_inference params key with NUL',
      request: () => submit('llm_inference', { [`prompt${NUL}`]: 'Hello' }),
      field: 'params',
    },
    {
      what: 'llm_inference params nested value with NUL',
      request: () =>
        submit('llm_inference', {
          messages: [
            { role: 'user', content: 'Hi' },
            { role: 'user', content: `x${NUL}` },
          ],
        }),
      field: 'params.messages.1.content',
    },
    {
      what: 'llm_inference params value with a lone surrogate',
      request: () => submit('llm_inference', { prompt: `Hello ${LONE_HIGH_SURROGATE}` }),
      field: 'params.prompt',
    },
    {
      what: 'transformer_inference params key with a lone surrogate',
      request: () =>
        submit('transformer_inference', { options: { [`k${LONE_LOW_SURROGATE}`]: 1 } }),
      field: 'params.options',
    },
    {
      what: 'fibonacci params with a NUL key',
      request: () => submit('fibonacci', { [`n${NUL}`]: 5 }),
      field: 'params',
    },
    {
      what: 'commit result with NUL',
      request: deviceCall(
        () => agentPaths.commit(leased.job_id),
        () => ({
          lease_id: leased.lease_id,
          result: { limit: 30, count: 10, largest: 29, first: [2], note: `x${NUL}` },
          commitment: { segment_counts: [10] },
          usage: { wall_ms: 1, cpu_ms: 1, peak_memory_bytes: 1 },
        }),
      ),
      field: 'result.note',
    },
    {
      what: 'commit commitment with a lone surrogate',
      request: deviceCall(
        () => agentPaths.commit(leased.job_id),
        () => ({
          lease_id: leased.lease_id,
          result: { limit: 30, count: 10, largest: 29, first: [2] },
          commitment: { [`k${LONE_HIGH_SURROGATE}`]: 1 },
          usage: { wall_ms: 1, cpu_ms: 1, peak_memory_bytes: 1 },
        }),
      ),
      field: 'commitment',
    },
  ];

  describe('NUL characters and lone surrogates', () => {
    it.each(cases)('$what: 400 naming $field, nothing stored', async ({ request, field }) => {
      const before = await snapshotOf(database);
      const response = await app.inject(request());
      const body = expectRejected(response, field);
      expect(body.code).toBe(ERROR_CODES.validation);
      expect(body.message).toMatch(/NUL character|lone surrogate|accepts only/);
      expect(await snapshotOf(database)).toEqual(before);
    });

    it('still accepts text with emoji (surrogate pairs) and other Unicode', async () => {
      const response = await app.inject({
        method: 'PUT',
        url: apiPaths.auth.profile,
        headers: bearer(enterprise),
        payload: { name: 'Zoë 🚀', organization_name: '東京 Labs', domain: 'ex.com' },
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ name: 'Zoë 🚀', organization_name: '東京 Labs' });
    });
  });

  describe('bounds on free text', () => {
    const plain = (options: InjectOptions) => app.inject(options);

    it('hardware fields: at most 200 characters, at register and at heartbeat', async () => {
      const before = await snapshotOf(database);
      const tooLong = 'c'.repeat(201);
      const registered = await plain({
        method: 'POST',
        url: agentPaths.register,
        headers: bearer(provider),
        payload: device({ hardware_info: { cpu: tooLong } }),
      });
      expect(expectRejected(registered, 'hardware_info.cpu').message).toBe(
        'cpu must be at most 200 characters',
      );
      const beat = await plain({
        method: 'POST',
        url: agentPaths.heartbeat,
        headers: deviceHeader(deviceToken),
        payload: { hardware_info: { memory: tooLong } },
      });
      expectRejected(beat, 'hardware_info.memory');
      expect(await snapshotOf(database)).toEqual(before);

      const fits = await plain({
        method: 'POST',
        url: agentPaths.heartbeat,
        headers: deviceHeader(deviceToken),
        payload: { hardware_info: { cpu: 'c'.repeat(200) } },
      });
      expect(fits.statusCode, fits.body).toBe(200);
    });

    it('progress messages: at most 200 characters; fail errors: at most 2000', async () => {
      const before = await snapshotOf(database);
      const progress = await plain({
        method: 'POST',
        url: agentPaths.progress(leased.job_id),
        headers: deviceHeader(deviceToken),
        payload: { lease_id: leased.lease_id, progress: 0.5, message: 'm'.repeat(201) },
      });
      expectRejected(progress, 'message');
      const failed = await plain({
        method: 'POST',
        url: agentPaths.fail(leased.job_id),
        headers: deviceHeader(deviceToken),
        payload: { lease_id: leased.lease_id, error: 'e'.repeat(2001), retryable: false },
      });
      expectRejected(failed, 'error');
      expect(await snapshotOf(database)).toEqual(before);
    });

    it('AI job params: a long prompt fits, more than 64 KB as JSON does not', async () => {
      const prompt = 'Summarise this. '.repeat(3800); // 60,800 characters
      const accepted = await plain({
        method: 'POST',
        url: apiPaths.jobs.submit,
        headers: bearer(enterprise),
        payload: { job_type: 'llm_inference', params: { prompt } },
      });
      expect(accepted.statusCode, accepted.body).toBe(201);
      expect(jobSchema.parse(accepted.json()).params).toEqual({ prompt });

      const before = await snapshotOf(database);
      const tooBig = await plain({
        method: 'POST',
        url: apiPaths.jobs.submit,
        headers: bearer(enterprise),
        payload: { job_type: 'llm_inference', params: { prompt: 'x'.repeat(64 * 1024) } },
      });
      expect(expectRejected(tooBig, 'params').message).toBe(
        'params must be at most 64 KB (65536 bytes) as JSON',
      );
      // Bytes, not characters: 22,000 three-byte characters are 66,000 bytes.
      const wide = await plain({
        method: 'POST',
        url: apiPaths.jobs.submit,
        headers: bearer(enterprise),
        payload: { job_type: 'neural_network_training', params: { text: '€'.repeat(22_000) } },
      });
      expectRejected(wide, 'params');
      expect(await snapshotOf(database)).toEqual(before);
    });

    it('AI job params: nesting deeper than 32 levels is refused, not a crash', async () => {
      const before = await snapshotOf(database);
      const depth = 50_000;
      const response = await app.inject({
        method: 'POST',
        url: apiPaths.jobs.submit,
        headers: { ...bearer(enterprise), 'content-type': 'application/json' },
        payload: `{"job_type":"llm_inference","params":{"a":${'['.repeat(depth)}${']'.repeat(depth)}}}`,
      });
      const body = expectRejected(response);
      expect(body).toMatchObject({
        message: 'params must not nest deeper than 32 levels',
        field: `params.a${'.0'.repeat(31)}`,
      });
      expect(await snapshotOf(database)).toEqual(before);
    });
  });

  describe('user strings never index an object', () => {
    it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'])(
      'GET /api/jobs?status=%s answers 400 naming status',
      async (status) => {
        const response = await app.inject({
          url: `${apiPaths.jobs.list}?status=${status}`,
          headers: bearer(enterprise),
        });
        const body = expectRejected(response, 'status');
        expect(body.message).toMatch(/^status must be one of all, running, /);
      },
    );
  });

  describe('months outside 2000..2100', () => {
    it.each([
      ['transactions', '0000-01'],
      ['transactions', '9999-12'],
      ['transactions', '1999-12'],
      ['transactions', '2101-01'],
      ['statement', '0000-01'],
      ['statement', '9999-12'],
      ['statement', '1999-12'],
    ] as const)('%s?month=%s answers 400 naming month', async (call, month) => {
      const response = await app.inject({
        url: `${apiPaths.payment[call]}?month=${month}`,
        headers: bearer(enterprise),
      });
      const body = expectRejected(response, 'month');
      expect(body.message).toMatch(/month/);
    });

    it('accepts the first month of the range', async () => {
      const transactions = await app.inject({
        url: `${apiPaths.payment.transactions}?month=2000-01`,
        headers: bearer(enterprise),
      });
      expect(transactions.statusCode, transactions.body).toBe(200);
      const statement = await app.inject({
        url: `${apiPaths.payment.statement}?month=2000-01`,
        headers: bearer(enterprise),
      });
      expect(statement.statusCode, statement.body).toBe(200);
    });
  });
});

// Event streams: one token could open any number (500 in the finding); now each process caps
// them per user and per client address, and a closed stream frees its slot.

/** Opens GET /api/events; resolves with the status, and a close() that ends the stream. */
async function openEvents(
  baseUrl: string,
  accessToken: string,
  clientAddress: string,
): Promise<{ status: number; body: unknown; close: () => void }> {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}${apiPaths.events}`, {
    headers: { ...bearer(accessToken), 'x-forwarded-for': clientAddress },
    signal: controller.signal,
  });
  if (response.status !== 200) {
    return { status: response.status, body: await response.json(), close: () => undefined };
  }
  // Read the stream in the background until it is closed, as a browser would.
  const reader = response.body?.getReader();
  void (async () => {
    try {
      for (;;) if ((await reader?.read())?.done !== false) break;
    } catch {
      // Aborted by close().
    }
  })();
  return { status: 200, body: undefined, close: () => controller.abort() };
}

describeWithPglite('event streams: at most so many per user and per client address', (database) => {
  const streams: { close: () => void }[] = [];

  async function listening(config: Partial<AppConfig>) {
    const app = await database.buildApp({
      config: { trustProxy: true, accessTokenTtlSeconds: 3600, ...config },
    });
    return { app, baseUrl: await app.listen({ host: '127.0.0.1', port: 0 }) };
  }

  async function open(baseUrl: string, token: string, address: string) {
    const stream = await openEvents(baseUrl, token, address);
    streams.push(stream);
    return stream;
  }

  /** A slot frees when the server sees the close: retry until it does. */
  async function openWhenFree(baseUrl: string, token: string, address: string) {
    let stream = await open(baseUrl, token, address);
    for (let round = 0; stream.status === 429 && round < 500; round += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      stream = await open(baseUrl, token, address);
    }
    return stream;
  }

  const closeAll = () => {
    for (const stream of streams.splice(0)) stream.close();
  };

  it('by default, a user gets 10 streams; the 11th answers 429 with a message', async () => {
    const { app, baseUrl } = await listening({});
    const token = await registerProvider(app);
    try {
      for (let index = 0; index < 10; index += 1) {
        expect((await open(baseUrl, token, uniqueIp())).status).toBe(200);
      }
      const refused = await open(baseUrl, token, uniqueIp());
      expect(refused.status).toBe(429);
      expect(errorBodySchema.parse(refused.body).message).toMatch(/event streams/);
    } finally {
      closeAll();
      await app.close();
    }
  });

  it('per user: the cap counts that user only, and a closed stream frees its slot', async () => {
    const { app, baseUrl } = await listening({ eventStreamsPerUser: 3, eventStreamsPerIp: 100 });
    const token = await registerProvider(app);
    const other = await registerProvider(app);
    try {
      const opened = [];
      for (let index = 0; index < 3; index += 1) {
        const stream = await open(baseUrl, token, uniqueIp());
        expect(stream.status).toBe(200);
        opened.push(stream);
      }
      const refused = await open(baseUrl, token, uniqueIp());
      expect(refused.status).toBe(429);
      expect(errorBodySchema.parse(refused.body)).toMatchObject({
        message: 'Too many open event streams for this account (at most 3). Close one and retry.',
        code: ERROR_CODES.rateLimited,
      });
      expect((await open(baseUrl, other, uniqueIp())).status).toBe(200);

      opened[0]?.close();
      expect((await openWhenFree(baseUrl, token, uniqueIp())).status).toBe(200);
      expect((await open(baseUrl, token, uniqueIp())).status).toBe(429);
    } finally {
      closeAll();
      await app.close();
    }
  });

  it('per client address: the cap counts every user from that address', async () => {
    const { app, baseUrl } = await listening({ eventStreamsPerUser: 100, eventStreamsPerIp: 3 });
    const address = uniqueIp();
    try {
      const opened = [];
      for (let index = 0; index < 3; index += 1) {
        const stream = await open(baseUrl, await registerProvider(app), address);
        expect(stream.status).toBe(200);
        opened.push(stream);
      }
      const newcomer = await registerProvider(app);
      const refused = await open(baseUrl, newcomer, address);
      expect(refused.status).toBe(429);
      expect(errorBodySchema.parse(refused.body).message).toBe(
        'Too many open event streams from this address (at most 3). Close one and retry.',
      );
      expect((await open(baseUrl, newcomer, uniqueIp())).status).toBe(200);

      opened[1]?.close();
      expect((await openWhenFree(baseUrl, newcomer, address)).status).toBe(200);
    } finally {
      closeAll();
      await app.close();
    }
  });

  it('a stream the server ends (its sign-in ended) frees its slot too', async () => {
    const { app, baseUrl } = await listening({ eventStreamsPerUser: 1, eventStreamsPerIp: 100 });
    const user = await registerUser(app, { role: 'enterprise' });
    try {
      expect((await open(baseUrl, user.auth.access_token, uniqueIp())).status).toBe(200);
      expect((await open(baseUrl, user.auth.access_token, uniqueIp())).status).toBe(429);
      const logout = await app.inject({
        method: 'POST',
        url: apiPaths.auth.logout,
        payload: { refresh_token: user.auth.refresh_token },
      });
      expect(logout.statusCode, logout.body).toBe(200);
      // The ended sign-in's slot is free: a fresh sign-in of the same account opens at once.
      const login = await app.inject({
        method: 'POST',
        url: apiPaths.auth.login,
        remoteAddress: uniqueIp(),
        payload: { email: user.email, password: user.password },
      });
      expect(login.statusCode, login.body).toBe(200);
      const fresh = authResponseSchema.parse(login.json()).access_token;
      expect((await openWhenFree(baseUrl, fresh, uniqueIp())).status).toBe(200);
    } finally {
      closeAll();
      await app.close();
    }
  });
});

// Logs: reset links only outside production (with a warning at start-up); signatures and other
// token-like query parameters never in access logs.

function collectLogs() {
  const lines: string[] = [];
  return {
    stream: { write: (line: string) => lines.push(line) },
    text: () => lines.join(''),
    entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

describeWithPglite('logs: reset links and signed links', (database) => {
  const forgotPassword = async (config: Partial<AppConfig>) => {
    const logs = collectLogs();
    // No mailer passed and no SMTP URL: the app writes emails to its log.
    const app = await database.buildAppWith({
      database: await database.connection(),
      mailer: undefined,
      logStream: logs.stream,
      config: { logLevel: 'info', smtpUrl: undefined, ...config },
    });
    const { email } = await registerUser(app);
    const response = await app.inject({
      method: 'POST',
      url: apiPaths.auth.forgotPassword,
      payload: { email },
    });
    expect(response.statusCode).toBe(200);
    await app.close();
    return { logs, email };
  };

  it('outside production, warn at start-up that emails (reset links too) go to the log', async () => {
    const { logs } = await forgotPassword({ isProduction: false });
    const warning = logs.entries().find((line) => String(line.msg).includes('SMTP_URL'));
    expect(warning).toMatchObject({ level: 40 });
    expect(String(warning?.msg)).toMatch(/reset links/);
    expect(logs.text()).toMatch(/reset-password\?token=[\w-]{43}/);
  });

  it('in production, never log the link: say the email was not sent', async () => {
    const { logs, email } = await forgotPassword({ isProduction: true });
    const text = logs.text();
    expect(text).not.toContain('reset-password');
    expect(text).not.toContain('token=');
    const warning = logs.entries().find((line) => String(line.msg).includes('SMTP_URL'));
    expect(warning).toMatchObject({ level: 40 });
    const notSent = logs.entries().find((line) => String(line.msg).includes('not sent'));
    expect(notSent).toMatchObject({
      level: 40,
      mail: { to: email, subject: 'Reset your Fabric password' },
    });
  });

  it('access logs redact signature and other token-like query parameters', async () => {
    const logs = collectLogs();
    const app = await database.buildApp({ logStream: logs.stream, config: { logLevel: 'info' } });
    const signature = 'a'.repeat(64);
    await app.inject({
      url: `${apiPaths.payment.sandboxOnboarding}?account=acct_sandbox_${'0'.repeat(32)}&expires=1&signature=${signature}`,
    });
    await app.inject({ url: `/somewhere?code=ABCD-EFGH-JKMN&sig=secret-sig&key=secret-key` });
    const text = logs.text();
    expect(text).not.toContain(signature);
    expect(text).not.toContain('ABCD-EFGH-JKMN');
    expect(text).not.toContain('secret-sig');
    expect(text).not.toContain('secret-key');
    expect(text).toContain('signature=[redacted]');
    expect(text).toContain('expires=1');
  });
});
