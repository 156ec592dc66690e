import {
  agentPaths,
  apiPaths,
  balanceResponseSchema,
  jobCostModel,
  JOB_TYPES,
  NO_NODE_SUPPORTS_TYPE,
  providerShareMicros,
  transactionListResponseSchema,
  usageCostMicros,
} from '@fabric/contract';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startAgentProcess, type RunningAgent } from '../support/agent.ts';
import {
  ApiFailure,
  callApi,
  createAccount,
  getJob,
  listNodes,
  submitJob,
  waitForJob,
  type Account,
} from '../support/api.ts';
import {
  createPostgresDatabase,
  isPostgresReachable,
  POSTGRES_SKIPPED_TITLE,
} from '../support/postgres.ts';
import { startServer, type RunningServer } from '../support/server.ts';

// The compute network end to end: the real server process, real agent processes leasing over
// HTTP, real kernels in child processes, verified results. Run on the embedded database and
// again on PostgreSQL.

/** Micro-dollars as the API shows money: dollars rounded to the cent. */
function cents(micros: number): number {
  return Math.round(micros / 10_000) / 100;
}

async function balanceOf(baseUrl: string, account: Account) {
  return balanceResponseSchema.parse(
    await callApi(baseUrl, 'GET', apiPaths.payment.balance, { token: account.token }),
  );
}

function networkSuite(database: 'pglite' | 'postgres') {
  let server: RunningServer;
  let dropDatabase: (() => Promise<void>) | undefined;
  let provider: Account;
  let enterprise: Account;
  const agents: RunningAgent[] = [];

  function startAgent(name: string) {
    const agent = startAgentProcess({
      serverUrl: server.url,
      email: provider.email,
      password: provider.password,
      name,
    });
    agents.push(agent);
    return agent;
  }

  async function stopAgent(agent: RunningAgent) {
    agent.signal('SIGTERM');
    await agent.exited;
  }

  beforeAll(async () => {
    let databaseUrl = '';
    if (database === 'postgres') {
      const created = await createPostgresDatabase();
      databaseUrl = created.url;
      dropDatabase = created.drop;
    }
    server = await startServer({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' });
    provider = await createAccount(server.url, 'node_provider');
    enterprise = await createAccount(server.url, 'enterprise');
  });

  // Each test starts its own agents; none may outlive it and take the next test's jobs.
  afterEach(async () => {
    for (const agent of agents) agent.signal('SIGKILL');
    await Promise.all(agents.map((agent) => agent.exited));
    agents.length = 0;
  });

  afterAll(async () => {
    await server.stop();
    await dropDatabase?.();
  });

  it('a job’s money end to end: the enterprise pays exactly the measured cost, the provider receives exactly its share', async () => {
    const payer = await createAccount(server.url, 'enterprise', { credits: 10 });
    const earner = await createAccount(server.url, 'node_provider');
    const agent = startAgentProcess({
      serverUrl: server.url,
      email: earner.email,
      password: earner.password,
      name: 'money',
    });
    agents.push(agent);
    await agent.waitForOutput(/Enrolled this device as node/);

    const submitted = await submitJob(server.url, payer, {
      job_type: 'prime_sieve',
      params: { limit: 50_000_000 },
    });
    expect(await balanceOf(server.url, payer)).toMatchObject({ balance: 7.6, held_credits: 2.4 });
    const job = await waitForJob(server.url, payer, submitted.id);
    expect(job.status).toBe('completed');
    expect(job.usage?.cpu_ms).toBeGreaterThanOrEqual(0);

    // The published rate applied to the job's verified work (its cost model), to the micro-dollar;
    // the agent took longer than the server needs to see for that work, so no bound lowers it.
    const work = jobCostModel('prime_sieve', job.params).referenceCpuMs;
    expect(job.billed_cpu_ms).toBe(work);
    const costMicros = usageCostMicros('prime_sieve', work, { includesJobFee: true });
    const shareMicros = providerShareMicros(costMicros);
    expect(job.actual_cost).toBe(costMicros / 1_000_000);
    expect(await balanceOf(server.url, payer)).toMatchObject({
      balance: cents(10_000_000 - costMicros),
      held_credits: 0,
      lifetime_spending: cents(costMicros),
    });
    expect(await balanceOf(server.url, earner)).toMatchObject({
      balance: 0,
      pending_earnings: cents(shareMicros),
      lifetime_earnings: cents(shareMicros),
    });
    const history = transactionListResponseSchema.parse(
      await callApi(server.url, 'GET', `${apiPaths.payment.transactions}?direction=out`, {
        token: payer.token,
      }),
    );
    expect(history.transactions).toMatchObject([
      { amount: -cents(costMicros), kind: 'job_charge', job_id: job.id },
    ]);
    const [node] = await listNodes(server.url, earner);
    expect(Number(node?.lifetime_earnings)).toBe(cents(shareMicros));
  });

  it('an enrolled agent runs each kernel (the deterministic ones and a digits training) and the verified results are right', async () => {
    const agent = startAgent('kernels');
    await agent.waitForOutput(/Enrolled this device as node/);
    const nodes = await listNodes(server.url, provider);
    expect(nodes).toHaveLength(1);
    expect(nodes[0]).toMatchObject({ name: 'kernels', status: 'online' });
    expect(nodes[0]?.hardware_info?.cpu).toBeTruthy();

    const fibonacci = await submitJob(server.url, enterprise, {
      job_type: 'fibonacci',
      params: { n: 100 },
    });
    const sieve = await submitJob(server.url, enterprise, {
      job_type: 'prime_sieve',
      params: { limit: 1_000_000 },
    });
    const matrix = await submitJob(server.url, enterprise, {
      job_type: 'matrix_multiply',
      params: {
        a: [
          [1, 2],
          [3, 4],
        ],
        b: [
          [5, 6],
          [7, 8],
        ],
      },
    });
    const defaults = await Promise.all(
      (['fibonacci', 'prime_sieve', 'matrix_multiply'] as const).map((type) =>
        submitJob(server.url, enterprise, { job_type: type }),
      ),
    );

    const fibonacciDone = await waitForJob(server.url, enterprise, fibonacci.id);
    expect(fibonacciDone.status).toBe('completed');
    expect(fibonacciDone.result).toMatchObject({
      n: 100,
      digits: 21,
      value: '354224848179261915075',
    });
    expect(fibonacciDone.usage?.wall_ms).toBeGreaterThan(0);
    expect(fibonacciDone.assigned_node_id).toBe(nodes[0]?.id);

    const sieveDone = await waitForJob(server.url, enterprise, sieve.id);
    expect(sieveDone.result).toMatchObject({
      limit: 1_000_000,
      count: 78498,
      largest: 999983,
      first: [2, 3, 5, 7, 11, 13, 17, 19, 23, 29],
    });

    const matrixDone = await waitForJob(server.url, enterprise, matrix.id);
    expect(matrixDone.result).toMatchObject({
      rows: 2,
      inner: 2,
      cols: 2,
      checksum: 134,
      c: [
        [19, 22],
        [43, 50],
      ],
      freivalds: { passed: true },
    });

    for (const job of defaults) {
      const done = await waitForJob(server.url, enterprise, job.id, undefined, 120_000);
      expect(done.status, `${job.job_type} with {}`).toBe('completed');
      expect(done.attempts).toBe(1);
    }

    // A real network trained on the real digits dataset, checked by the server on its weights.
    const training = await submitJob(server.url, enterprise, {
      job_type: 'neural_network_training',
      params: { epochs: 5, seed: 7 },
    });
    const trained = await waitForJob(server.url, enterprise, training.id, undefined, 120_000);
    expect(trained.status, trained.error ?? '').toBe('completed');
    const result = trained.result as {
      history: { epoch: number; loss: number }[];
      final: { val_accuracy: number | null };
      dataset: { name: string; samples: number };
    };
    expect(result.history).toHaveLength(5);
    expect(result.history.at(-1)?.loss).toBeLessThan(result.history[0]?.loss ?? 0);
    expect(result.final.val_accuracy).toBeGreaterThan(0.9);
    expect(result.dataset).toMatchObject({ name: 'digits', samples: 1797 });

    const after = await listNodes(server.url, provider);
    expect(after[0]?.jobs_completed).toBe(7);
    await stopAgent(agent);
  });

  it.runIf(database === 'pglite')(
    'the agent downloaded from the server runs as one file with plain node',
    async () => {
      const response = await fetch(`${server.url}${agentPaths.download}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-disposition')).toBe(
        'attachment; filename="fabric-agent.mjs"',
      );
      const directory = mkdtempSync(path.join(tmpdir(), 'fabric-download-'));
      const bundle = path.join(directory, 'fabric-agent.mjs');
      writeFileSync(bundle, Buffer.from(await response.arrayBuffer()));

      const agent = startAgentProcess({
        serverUrl: server.url,
        email: provider.email,
        password: provider.password,
        name: 'downloaded',
        bundle,
        maxCores: 2,
      });
      agents.push(agent);
      await agent.waitForOutput(/Connected to/);
      const job = await submitJob(server.url, enterprise, {
        job_type: 'prime_sieve',
        params: { limit: 100_000_000 },
      });
      const done = await waitForJob(server.url, enterprise, job.id);
      expect(done.result).toMatchObject({ count: 5_761_455 });
    },
  );

  it('AI job types without a runtime wait in the queue with the reason instead of a made-up result', async () => {
    for (const type of ['transformer_inference', 'llm_inference'] as const) {
      const job = await submitJob(server.url, enterprise, { job_type: type });
      expect(job.status).toBe('queued');
      expect(job.queue_reason).toBe(NO_NODE_SUPPORTS_TYPE);
      expect(job.result).toBeNull();
    }
  });

  it('bad params of every type are refused with 400 naming the field', async () => {
    const bad: Record<string, Record<string, unknown>> = {
      matrix_multiply: { size: 5000 },
      fibonacci: { n: -5 },
      prime_sieve: { limit: 1 },
    };
    for (const [type, params] of Object.entries(bad)) {
      const failure = await callApi(server.url, 'POST', apiPaths.jobs.submit, {
        token: enterprise.token,
        body: { job_type: type, params },
      }).catch((error: unknown) => error);
      expect(failure, type).toBeInstanceOf(ApiFailure);
      expect((failure as ApiFailure).status).toBe(400);
      expect((failure as ApiFailure).field).toMatch(/^params\./);
    }
    expect(JOB_TYPES).toContain('matrix_multiply');
  });

  it('two agents share many jobs and every job runs exactly once', async () => {
    const first = startAgent('pair-1');
    const second = startAgent('pair-2');
    await Promise.all([first.waitForOutput(/Connected to/), second.waitForOutput(/Connected to/)]);
    const jobs = await Promise.all(
      Array.from({ length: 16 }, (_, index) =>
        submitJob(server.url, enterprise, { job_type: 'fibonacci', params: { n: 1000 + index } }),
      ),
    );
    for (const job of jobs) {
      const done = await waitForJob(server.url, enterprise, job.id);
      expect(done.status).toBe('completed');
      expect(done.attempts).toBe(1);
      expect(done.result).toMatchObject({ n: job.params.n });
    }
    const runs =
      (first.output() + second.output()).match(/Running fibonacci job \w+ \(attempt/g) ?? [];
    expect(runs).toHaveLength(16);
    await Promise.all([stopAgent(first), stopAgent(second)]);
  });

  it('a job whose agent is killed mid-run completes on another agent', async () => {
    const doomed = startAgent('doomed');
    await doomed.waitForOutput(/Connected to/);
    const job = await submitJob(server.url, enterprise, {
      job_type: 'prime_sieve',
      params: { limit: 10_000_000_000 },
    });
    await waitForJob(server.url, enterprise, job.id, (current) => current.status === 'running');
    doomed.signal('SIGKILL');
    await doomed.exited;

    const rescuer = startAgent('rescuer');
    const done = await waitForJob(server.url, enterprise, job.id, undefined, 180_000);
    expect(done.status).toBe('completed');
    expect(done.attempts).toBe(2);
    expect(done.result).toMatchObject({ count: 455_052_511 });
    const nodes = await listNodes(server.url, provider);
    expect(done.assigned_node_id).toBe(nodes.find((node) => node.name === 'rescuer')?.id);
    await stopAgent(rescuer);
  });

  it('an agent stopped with SIGTERM hands its job back at once, and an unenrolled agent stops', async () => {
    const leaving = startAgent('leaving');
    await leaving.waitForOutput(/Connected to/);
    const job = await submitJob(server.url, enterprise, {
      job_type: 'prime_sieve',
      params: { limit: 50_000_000_000 },
    });
    await waitForJob(server.url, enterprise, job.id, (current) => current.status === 'running');
    leaving.signal('SIGTERM');
    expect(await leaving.exited).toBe(0);
    expect(leaving.output()).toMatch(/Handed job \w+ back to the network/);
    const requeued = await getJob(server.url, enterprise, job.id);
    expect(requeued.status).toBe('queued');
    await callApi(server.url, 'POST', apiPaths.jobs.cancel(job.id), { token: enterprise.token });

    const unenrolled = startAgent('unenrolled');
    await unenrolled.waitForOutput(/Connected to/);
    const node = (await listNodes(server.url, provider)).find(
      (candidate) => candidate.name === 'unenrolled',
    );
    if (!node) throw new Error('node not listed');
    await callApi(server.url, 'DELETE', apiPaths.nodes.detail(node.id), { token: provider.token });
    expect(await unenrolled.exited).toBe(2);
    expect(unenrolled.output()).toContain('The server no longer accepts this node');
    expect((await listNodes(server.url, provider)).map((listed) => listed.id)).not.toContain(
      node.id,
    );
  });

  it('a paused node takes no work until resumed; cancel stops queued and running jobs', async () => {
    const agent = startAgent('pausable');
    await agent.waitForOutput(/Connected to/);
    const node = (await listNodes(server.url, provider)).find(
      (candidate) => candidate.name === 'pausable',
    );
    if (!node) throw new Error('node not listed');

    await callApi(server.url, 'POST', apiPaths.nodes.pause(node.id), { token: provider.token });
    const waiting = await submitJob(server.url, enterprise, {
      job_type: 'fibonacci',
      params: { n: 5 },
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await getJob(server.url, enterprise, waiting.id)).status).toBe('queued');

    const queuedToCancel = await submitJob(server.url, enterprise, {
      job_type: 'fibonacci',
      params: { n: 6 },
    });
    await callApi(server.url, 'POST', apiPaths.jobs.cancel(queuedToCancel.id), {
      token: enterprise.token,
    });
    expect((await getJob(server.url, enterprise, queuedToCancel.id)).status).toBe('cancelled');

    await callApi(server.url, 'POST', apiPaths.nodes.resume(node.id), { token: provider.token });
    expect((await waitForJob(server.url, enterprise, waiting.id)).status).toBe('completed');

    const long = await submitJob(server.url, enterprise, {
      job_type: 'prime_sieve',
      params: { limit: 50_000_000_000 },
    });
    await waitForJob(server.url, enterprise, long.id, (current) => current.status === 'running');
    await callApi(server.url, 'POST', apiPaths.jobs.cancel(long.id), { token: enterprise.token });
    expect((await getJob(server.url, enterprise, long.id)).status).toBe('cancelled');
    await agent.waitForOutput(/was cancelled; stopped it/);

    // The agent is free again afterwards.
    const next = await submitJob(server.url, enterprise, {
      job_type: 'fibonacci',
      params: { n: 7 },
    });
    expect((await waitForJob(server.url, enterprise, next.id)).result).toMatchObject({
      value: '13',
    });
    await stopAgent(agent);
  });
}

describe('compute network on the embedded database', () => networkSuite('pglite'));
if (isPostgresReachable) describe('compute network on PostgreSQL', () => networkSuite('postgres'));
else describe.skip(POSTGRES_SKIPPED_TITLE, () => networkSuite('postgres'));
