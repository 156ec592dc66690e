import { apiPaths, ERROR_CODES, IDEMPOTENCY_KEY_HEADER } from '@fabric/contract';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { bearer } from './support/auth.ts';
import { cancelUnfinishedJobs, registerEnterprise } from './support/compute-network.ts';
import { describeEachDatabase } from './support/databases.ts';
import { balanceOf, expectLedgerSound } from './support/money.ts';

// "Retried submits double-charge": POST /api/jobs/submit honours Idempotency-Key like add-credits
// and payout. The same key returns the same job with one hold; the key with another job is
// refused with 409; a malformed key is a 400 naming the header.

describeEachDatabase('jobs: submit with an Idempotency-Key', (database) => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = await database.buildApp();
  });
  afterEach(async () => {
    await cancelUnfinishedJobs(database);
    await expectLedgerSound(database);
  });

  const submit = (token: string, body: object, key?: string) =>
    app.inject({
      method: 'POST',
      url: apiPaths.jobs.submit,
      headers: {
        ...bearer(token),
        ...(key === undefined ? {} : { [IDEMPOTENCY_KEY_HEADER]: key }),
      },
      payload: body,
    });

  const job = { job_type: 'prime_sieve', params: { limit: 1000 }, priority: 0 };

  it('returns the same job and holds once, however often and however concurrently it is sent', async () => {
    const enterprise = await registerEnterprise(app, { credits: 10 });
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => submit(enterprise, job, 'submit-once')),
    );
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(201);
    const ids = new Set(answers.map((answer) => answer.json<{ id: string }>().id));
    expect(ids.size).toBe(1);
    expect(await balanceOf(app, enterprise)).toMatchObject({ balance: 7.6, held_credits: 2.4 });
    const list = await app.inject({ url: apiPaths.jobs.list, headers: bearer(enterprise) });
    expect(list.json<{ total: number }>().total).toBe(1);
  });

  it('refuses the key with other parameters and changes nothing', async () => {
    const enterprise = await registerEnterprise(app, { credits: 10 });
    expect((await submit(enterprise, job, 'one-key')).statusCode).toBe(201);
    const other = await submit(enterprise, { ...job, params: { limit: 2000 } }, 'one-key');
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ code: ERROR_CODES.idempotencyConflict });
    expect((await balanceOf(app, enterprise)).held_credits).toBe(2.4);
  });

  it('keeps keys per account and submits anew without a key', async () => {
    const first = await registerEnterprise(app, { credits: 10 });
    const second = await registerEnterprise(app, { credits: 10 });
    const a = await submit(first, job, 'shared-key');
    const b = await submit(second, job, 'shared-key');
    expect(a.json<{ id: string }>().id).not.toBe(b.json<{ id: string }>().id);
    await submit(first, job);
    await submit(first, job);
    expect((await balanceOf(app, first)).held_credits).toBe(7.2);
  });

  it('answers 400 naming the header for a malformed key', async () => {
    const enterprise = await registerEnterprise(app, { credits: 10 });
    const response = await submit(enterprise, job, 'not a valid key!');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ field: 'Idempotency-Key' });
    expect((await balanceOf(app, enterprise)).held_credits).toBe(0);
  });
});
