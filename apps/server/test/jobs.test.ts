import {
  agentPaths,
  apiPaths,
  ERROR_CODES,
  jobListResponseSchema,
  jobSchema,
  NO_NODE_SUPPORTS_TYPE,
  type JobListResponse,
} from '@fabric/contract';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bearer, registerUser } from './support/auth.ts';
import { createManualClock } from './support/clock.ts';
import {
  agentCall,
  cancelUnfinishedJobs,
  completeRequest,
  enrollNode,
  getJob,
  heartbeat,
  lease,
  leaseJob,
  primeSieveResult,
  registerEnterprise,
  registerProvider,
  submitJob,
} from './support/compute-network.ts';
import { describeEachDatabase } from './support/databases.ts';

describeEachDatabase('jobs: submit, list, details and cancel', (database) => {
  let app: FastifyInstance;
  const clock = createManualClock();

  beforeAll(async () => {
    app = await database.buildApp({ clock: clock.now });
  });

  const submitRequest = (token: string, payload: unknown) =>
    app.inject({
      method: 'POST',
      url: apiPaths.jobs.submit,
      headers: bearer(token),
      payload: payload as object,
    });
  const list = async (token: string, query = ''): Promise<JobListResponse> => {
    const response = await app.inject({
      url: `${apiPaths.jobs.list}${query}`,
      headers: bearer(token),
    });
    expect(response.statusCode, response.body).toBe(200);
    return jobListResponseSchema.parse(response.json());
  };
  const cancel = (token: string, id: string) =>
    app.inject({ method: 'POST', url: apiPaths.jobs.cancel(id), headers: bearer(token) });

  describe('POST /api/jobs/submit', () => {
    afterEach(() => cancelUnfinishedJobs(database));
    it('answers 201 with the queued job, its estimate and no actual cost', async () => {
      const enterprise = await registerEnterprise(app);
      const response = await submitRequest(enterprise, {
        job_type: 'matrix_multiply',
        params: { size: 64, seed: 7 },
        priority: 1,
      });
      expect(response.statusCode).toBe(201);
      const job = jobSchema.parse(response.json());
      expect(job).toEqual({
        id: job.id,
        job_type: 'matrix_multiply',
        status: 'queued',
        priority: 1,
        params: { size: 64, seed: 7 },
        estimated_cost: 2.4,
        actual_cost: null,
        billed_cpu_ms: null,
        assigned_node_id: null,
        created_at: clock.now().toISOString(),
        started_at: null,
        finished_at: null,
        attempts: 0,
        max_attempts: 3,
        progress: 0,
        progress_message: null,
        queue_reason: null,
        // The default QUEUE_TIMEOUT_HOURS: a day from submission.
        queue_expires_at: new Date(clock.now().getTime() + 24 * 60 * 60 * 1000).toISOString(),
        result: null,
        error: null,
        usage: null,
        replication: null,
      });
      expect(await getJob(app, enterprise, job.id)).toEqual(job);
    });

    it('defaults params to {} and priority to 0', async () => {
      const job = await submitJob(app, await registerEnterprise(app), { job_type: 'fibonacci' });
      expect(job).toMatchObject({ params: {}, priority: 0 });
    });

    it.each(['transformer_inference', 'llm_inference'] as const)(
      '%s stays queued with NO_NODE_SUPPORTS_TYPE, even for a node claiming it',
      async (jobType) => {
        const enterprise = await registerEnterprise(app);
        const job = await submitJob(app, enterprise, {
          job_type: jobType,
          params: { model: 'any' },
        });
        expect(job).toMatchObject({ status: 'queued', queue_reason: NO_NODE_SUPPORTS_TYPE });
        const { deviceToken } = await enrollNode(app, await registerProvider(app), {
          supported_job_types: [jobType],
        });
        expect(await lease(app, deviceToken)).toBeNull();
        expect((await getJob(app, enterprise, job.id)).status).toBe('queued');
      },
    );

    it.each([
      ['matrix_multiply', { size: 0 }, 'params.size'],
      ['matrix_multiply', { size: 4096 }, 'params.size'],
      ['matrix_multiply', { rows: 2.5 }, 'params.rows'],
      ['matrix_multiply', { seed: -1 }, 'params.seed'],
      ['matrix_multiply', { a: [[1, 2]] }, 'params.b'],
      ['matrix_multiply', { a: [[1, 2]], b: [[1], [2], [3]] }, 'params.b'],
      ['matrix_multiply', { a: 'matrix', b: [[1]] }, 'params.a'],
      ['fibonacci', { n: -1 }, 'params.n'],
      ['fibonacci', { n: 'ten' }, 'params.n'],
      ['fibonacci', { n: 10_000_001 }, 'params.n'],
      ['fibonacci', { m: 3 }, 'params'],
      ['prime_sieve', { limit: 1 }, 'params.limit'],
      ['prime_sieve', { limit: 100_000_000_001 }, 'params.limit'],
      ['prime_sieve', { limit: 1.5 }, 'params.limit'],
      ['neural_network_training', [1, 2], 'params'],
      ['neural_network_training', { epochs: 501 }, 'params.epochs'],
      ['neural_network_training', { hidden_layers: [512, 512, 512] }, 'params.hidden_layers'],
      ['neural_network_training', { dataset: 'imagenet' }, 'params.dataset'],
      ['transformer_inference', 'prompt', 'params'],
      ['llm_inference', 42, 'params'],
    ])('%s with params %j: 400 naming %s', async (jobType, params, field) => {
      const response = await submitRequest(await registerEnterprise(app), {
        job_type: jobType,
        params,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ field, code: ERROR_CODES.validation });
    });

    it.each([
      [{ job_type: 'quantum', params: {} }, 'job_type', 'Unknown job type'],
      [{ params: {} }, 'job_type', 'Unknown job type'],
      [
        { job_type: 'fibonacci', priority: 2 },
        'priority',
        'Priority must be 0 (Normal) or 1 (High)',
      ],
    ])('%j: 400 naming %s', async (payload, field, message) => {
      const response = await submitRequest(await registerEnterprise(app), payload);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message, field, code: ERROR_CODES.validation });
    });

    it('names the matrix field and says what is wrong', async () => {
      const response = await submitRequest(await registerEnterprise(app), {
        job_type: 'matrix_multiply',
        params: { size: 4096 },
      });
      expect(response.json()).toEqual({
        message: 'size must be at most 2048',
        field: 'params.size',
        code: ERROR_CODES.validation,
      });
    });
  });

  describe('GET /api/jobs', () => {
    let enterprise: string;
    const submitted: string[] = [];

    afterAll(() => cancelUnfinishedJobs(database));
    beforeAll(async () => {
      enterprise = await registerEnterprise(app);
      for (let index = 0; index < 250; index += 1) {
        clock.advanceBy(1000);
        const job = await submitJob(app, enterprise, {
          job_type: index % 2 === 0 ? 'fibonacci' : 'prime_sieve',
          params: {},
        });
        submitted.push(job.id);
      }
      // 10 cancelled, 3 running, 1 completed, 1 failed; the rest stay queued.
      for (const id of submitted.slice(0, 10))
        expect((await cancel(enterprise, id)).statusCode).toBe(200);
      const provider = await registerProvider(app);
      for (let index = 0; index < 5; index += 1) {
        const { deviceToken } = await enrollNode(app, provider, {
          supported_job_types: ['prime_sieve'],
        });
        const leased = await leaseJob(app, deviceToken);
        if (index === 0) {
          const done = await completeRequest(
            app,
            deviceToken,
            leased,
            primeSieveResult(10_000_000),
          );
          expect(done.json()).toEqual({ accepted: true, reason: null });
        } else if (index === 1) {
          await agentCall(app, deviceToken, agentPaths.fail(leased.job_id), {
            lease_id: leased.lease_id,
            error: 'Out of memory',
            retryable: false,
          });
        }
      }
    });

    it('pages newest first with page 1 and page_size 20 by default', async () => {
      const first = await list(enterprise);
      expect(first).toMatchObject({ total: 250, page: 1, page_size: 20 });
      expect(first.jobs.map((job) => job.id)).toEqual(submitted.slice(-20).reverse());
    });

    it('walks every job exactly once across pages', async () => {
      const seen: string[] = [];
      for (let page = 1; page <= 3; page += 1) {
        const answer = await list(enterprise, `?page=${page}&page_size=100`);
        expect(answer.jobs).toHaveLength(page === 3 ? 50 : 100);
        seen.push(...answer.jobs.map((job) => job.id));
      }
      expect(seen).toEqual([...submitted].reverse());
      expect((await list(enterprise, '?page=4&page_size=100')).jobs).toEqual([]);
    });

    it('counts every status over all the caller’s jobs, whatever the filter', async () => {
      const counts = { queued: 235, running: 3, completed: 1, failed: 1, cancelled: 10 };
      expect((await list(enterprise)).counts).toEqual(counts);
      expect((await list(enterprise, '?status=completed')).counts).toEqual(counts);
    });

    it('status=running lists queued and running jobs, as the Running tab does', async () => {
      const statuses: string[] = [];
      for (let page = 1; page <= 3; page += 1) {
        const answer = await list(enterprise, `?status=running&page=${page}&page_size=100`);
        expect(answer.total).toBe(238);
        statuses.push(...answer.jobs.map((job) => job.status));
      }
      expect(statuses).toHaveLength(238);
      expect(statuses.filter((status) => status === 'running')).toHaveLength(3);
      expect(statuses.filter((status) => status === 'queued')).toHaveLength(235);
    });

    it.each([
      ['queued', 235],
      ['completed', 1],
      ['failed', 1],
      ['cancelled', 10],
      ['all', 250],
    ])('status=%s lists those jobs only (%i)', async (status, total) => {
      const answer = await list(enterprise, `?status=${status}&page_size=100`);
      expect(answer.total).toBe(total);
      expect(answer.jobs).toHaveLength(Math.min(total, 100));
      if (status !== 'all') expect(answer.jobs.every((job) => job.status === status)).toBe(true);
    });

    it.each([
      ['?status=paused', 'status'],
      ['?page=0', 'page'],
      ['?page=abc', 'page'],
      ['?page_size=101', 'page_size'],
      ['?page_size=0', 'page_size'],
    ])('%s: 400 naming %s', async (query, field) => {
      const response = await app.inject({
        url: `${apiPaths.jobs.list}${query}`,
        headers: bearer(enterprise),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ field, code: ERROR_CODES.validation });
    });

    it('shows another enterprise none of these jobs', async () => {
      const answer = await list(await registerEnterprise(app));
      expect(answer).toEqual({
        jobs: [],
        total: 0,
        page: 1,
        page_size: 20,
        counts: { queued: 0, running: 0, completed: 0, failed: 0, cancelled: 0 },
      });
    });
  });

  describe('GET /api/jobs with 10,000 jobs', () => {
    afterAll(() => cancelUnfinishedJobs(database));

    it('reads a page through the owner indexes instead of scanning every job', async () => {
      const { auth } = await registerUser(app, { role: 'enterprise' });
      const ownerId = auth.user_id;
      const { db } = await database.connection();
      await db.execute(sql`
        INSERT INTO jobs (owner_id, job_type, params, status, max_attempts, created_at, updated_at)
        SELECT ${ownerId}, 'fibonacci', '{}'::jsonb,
               (ARRAY['queued', 'completed', 'failed', 'cancelled'])[1 + i % 4]::job_status, 3,
               now() - i * interval '1 second', now()
        FROM generate_series(1, 10000) AS i`);
      await db.execute(sql`ANALYZE jobs`);
      const planOf = async (query: ReturnType<typeof sql>) =>
        JSON.stringify(await db.execute(sql`EXPLAIN ${query}`));

      // The shapes of the repository's queries (job.repository.ts).
      const newest = await planOf(sql`SELECT * FROM jobs WHERE owner_id = ${ownerId}
        ORDER BY created_at DESC, sequence DESC LIMIT 20 OFFSET 0`);
      expect(newest).toContain('jobs_owner_created_index');
      expect(newest).not.toContain('Seq Scan');
      const failed = await planOf(sql`SELECT * FROM jobs WHERE owner_id = ${ownerId}
        AND status IN ('failed') ORDER BY created_at DESC, sequence DESC LIMIT 20 OFFSET 0`);
      expect(failed).toContain('jobs_owner_status_index');
      expect(failed).not.toContain('Seq Scan');

      const answer = await list(auth.access_token, '?status=failed&page=3');
      expect(answer).toMatchObject({ total: 2500, page: 3, page_size: 20 });
      expect(answer.counts).toEqual({
        queued: 2500,
        running: 0,
        completed: 2500,
        failed: 2500,
        cancelled: 2500,
      });
      expect(answer.jobs).toHaveLength(20);
    });
  });

  describe('POST /api/jobs/{id}/cancel', () => {
    afterEach(() => cancelUnfinishedJobs(database));
    it('cancels a queued job at once', async () => {
      const enterprise = await registerEnterprise(app);
      const job = await submitJob(app, enterprise);
      const response = await cancel(enterprise, job.id);
      expect(response.statusCode).toBe(200);
      expect(jobSchema.parse(response.json())).toMatchObject({
        id: job.id,
        status: 'cancelled',
        error: 'Cancelled by its owner',
        finished_at: clock.now().toISOString(),
      });
      const { deviceToken } = await enrollNode(app, await registerProvider(app));
      expect(await lease(app, deviceToken)).toBeNull();
    });

    it('cancels a running job; the node is told to abort and its lease is void', async () => {
      const enterprise = await registerEnterprise(app);
      const job = await submitJob(app, enterprise);
      const { deviceToken } = await enrollNode(app, await registerProvider(app));
      const leased = await leaseJob(app, deviceToken);
      const before = await agentCall(app, deviceToken, agentPaths.progress(job.id), {
        lease_id: leased.lease_id,
        progress: 0.25,
      });
      expect(before.json()).toEqual({ abort: false });

      const response = await cancel(enterprise, job.id);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ status: 'cancelled', progress: 0.25 });

      expect(await heartbeat(app, deviceToken, { running_job_ids: [job.id] })).toMatchObject({
        abort_job_ids: [job.id],
      });
      const progress = await agentCall(app, deviceToken, agentPaths.progress(job.id), {
        lease_id: leased.lease_id,
        progress: 0.5,
      });
      expect(progress.statusCode).toBe(200);
      expect(progress.json()).toEqual({ abort: true });
      const late = await completeRequest(app, deviceToken, leased, primeSieveResult(30));
      expect(late.statusCode).toBe(409);
      expect(late.json()).toMatchObject({ code: ERROR_CODES.leaseNotValid });
      expect((await getJob(app, enterprise, job.id)).status).toBe('cancelled');

      // The node is free for the next job.
      const next = await submitJob(app, enterprise);
      expect((await leaseJob(app, deviceToken)).job_id).toBe(next.id);
    });

    it.each(['completed', 'failed', 'cancelled'] as const)(
      'answers 409 for a %s job',
      async (status) => {
        const enterprise = await registerEnterprise(app);
        const job = await submitJob(app, enterprise);
        if (status === 'cancelled') {
          await cancel(enterprise, job.id);
        } else {
          const { deviceToken } = await enrollNode(app, await registerProvider(app));
          const leased = await leaseJob(app, deviceToken);
          if (status === 'completed') {
            await completeRequest(app, deviceToken, leased, primeSieveResult(30));
          } else {
            // A device's failure ends the job after max_attempts (a single device's "final"
            // failure is checked on another provider's node first).
            let attempt = leased;
            for (let count = 1; ; count += 1) {
              await agentCall(app, deviceToken, agentPaths.fail(job.id), {
                lease_id: attempt.lease_id,
                error: 'device ran out of memory',
                retryable: true,
              });
              if (count === 3) break;
              attempt = await leaseJob(app, deviceToken);
            }
          }
        }
        const response = await cancel(enterprise, job.id);
        expect(response.statusCode).toBe(409);
        expect(response.json()).toEqual({
          message: `This job is already ${status} and cannot be cancelled`,
          code: ERROR_CODES.conflict,
        });
        expect((await getJob(app, enterprise, job.id)).status).toBe(status);
      },
    );
  });
});
