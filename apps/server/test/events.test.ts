import { agentPaths, apiPaths } from '@fabric/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { authResponseSchema } from '@fabric/contract';
import { bearer, login, registerUser, TEST_PASSWORD } from './support/auth.ts';
import { createManualClock } from './support/clock.ts';
import {
  agentCall,
  cancelUnfinishedJobs,
  enrollNode,
  heartbeat,
  leaseJob,
  registerEnterprise,
  registerProvider,
  submitJob,
  waitUntil,
} from './support/compute-network.ts';
import { describeEachDatabase } from './support/databases.ts';

interface StreamEvent {
  event: string;
  data: unknown;
}

/** An open GET /api/events stream and every event it has received so far. */
interface EventStream {
  events: StreamEvent[];
  isClosed: () => boolean;
  close: () => void;
}

async function openStream(baseUrl: string, accessToken: string): Promise<EventStream> {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}${apiPaths.events}`, {
    headers: bearer(accessToken),
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const body = response.body;
  if (!body) throw new Error('The event stream has no body');
  const events: StreamEvent[] = [];
  let isClosed = false;
  void (async () => {
    const decoder = new TextDecoder();
    let buffered = '';
    try {
      for await (const chunk of body) {
        buffered += decoder.decode(chunk as Uint8Array, { stream: true });
        let boundary = buffered.indexOf('\n\n');
        while (boundary >= 0) {
          const block = buffered.slice(0, boundary);
          buffered = buffered.slice(boundary + 2);
          const name = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (name && data) events.push({ event: name, data: JSON.parse(data) as unknown });
          boundary = buffered.indexOf('\n\n');
        }
      }
    } catch {
      // Aborted by close().
    } finally {
      isClosed = true;
    }
  })();
  await waitUntil(() => events.length > 0, 'the stream says it is ready');
  return {
    events,
    isClosed: () => isClosed,
    close: () => {
      controller.abort();
    },
  };
}

/** The stream's change events about jobs and nodes (balances and notifications also arrive). */
const changesOf = (stream: EventStream) =>
  stream.events
    .filter((event) => event.event === 'change')
    .map((event) => event.data as { kind: string; id: string })
    .filter((change) => change.kind === 'job' || change.kind === 'node');

const kindsOf = (stream: EventStream) =>
  stream.events
    .filter((event) => event.event === 'change')
    .map((event) => (event.data as { kind: string }).kind);

describeEachDatabase('GET /api/events: live change notifications', (database) => {
  let app: FastifyInstance;
  let baseUrl: string;
  const clock = createManualClock(new Date('2026-11-22T10:00:05.000Z'));
  const streams: EventStream[] = [];

  beforeAll(async () => {
    clock.advanceBy(Date.now() - clock.now().getTime());
    app = await database.buildApp({ clock: clock.now });
    baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterEach(async () => {
    for (const stream of streams.splice(0)) stream.close();
    await cancelUnfinishedJobs(database);
  });
  afterAll(async () => {
    await app.close();
  });

  const open = async (accessToken: string) => {
    const stream = await openStream(baseUrl, accessToken);
    streams.push(stream);
    return stream;
  };

  it('refuses a caller without a token', async () => {
    const response = await fetch(`${baseUrl}${apiPaths.events}`);
    expect(response.status).toBe(401);
  });

  it('opens with a ready event', async () => {
    const stream = await open(await registerEnterprise(app));
    expect(stream.events[0]).toEqual({ event: 'ready', data: {} });
  });

  it('tells an enterprise about its own jobs only, from submit to completion', async () => {
    const enterprise = await registerEnterprise(app);
    const stranger = await registerEnterprise(app);
    const provider = await registerProvider(app);
    const { deviceToken } = await enrollNode(app, provider);
    const own = await open(enterprise);
    const other = await open(stranger);

    const job = await submitJob(app, enterprise, {
      job_type: 'prime_sieve',
      params: { limit: 100 },
    });
    await waitUntil(() => changesOf(own).length >= 1, 'the submit is announced');
    expect(changesOf(own)).toEqual([{ kind: 'job', id: job.id }]);

    const leased = await leaseJob(app, deviceToken);
    await waitUntil(() => changesOf(own).length >= 2, 'the lease is announced');
    const progress = await agentCall(app, deviceToken, agentPaths.progress(job.id), {
      lease_id: leased.lease_id,
      progress: 0.5,
    });
    expect(progress.statusCode, progress.body).toBe(200);
    await waitUntil(() => changesOf(own).length >= 3, 'the progress is announced');
    expect(
      changesOf(own).every(
        (change) => JSON.stringify(change) === JSON.stringify({ kind: 'job', id: job.id }),
      ),
    ).toBe(true);
    expect(changesOf(other)).toEqual([]);
    // The job's hold moved credits: the owner hears of their balance too, the stranger does not.
    await waitUntil(() => kindsOf(own).includes('balance'), 'the hold is announced');
    expect(kindsOf(other)).toEqual([]);
  });

  it('tells a provider about its nodes and the jobs they run, but not about bare heartbeats', async () => {
    const provider = await registerProvider(app);
    const enterprise = await registerEnterprise(app);
    const stream = await open(provider);
    const { node, deviceToken } = await enrollNode(app, provider);
    await waitUntil(
      () =>
        changesOf(stream).some(
          (change) => JSON.stringify(change) === JSON.stringify({ kind: 'node', id: node.id }),
        ),
      'the enrollment is announced',
    );
    const before = changesOf(stream).length;

    // A heartbeat in the same minute changes nothing anyone sees: no event.
    await heartbeat(app, deviceToken);
    const pause = await app.inject({
      method: 'POST',
      url: apiPaths.nodes.pause(node.id),
      headers: bearer(provider),
    });
    expect(pause.statusCode).toBe(200);
    await waitUntil(() => changesOf(stream).length > before, 'the pause is announced');
    expect(changesOf(stream).slice(before)).toEqual([{ kind: 'node', id: node.id }]);

    const resume = await app.inject({
      method: 'POST',
      url: apiPaths.nodes.resume(node.id),
      headers: bearer(provider),
    });
    expect(resume.statusCode).toBe(200);
    const job = await submitJob(app, enterprise, { job_type: 'fibonacci', params: { n: 10 } });
    await leaseJob(app, deviceToken);
    await waitUntil(
      () =>
        changesOf(stream).some(
          (change) => JSON.stringify(change) === JSON.stringify({ kind: 'job', id: job.id }),
        ),
      "the job leased to the provider's node is announced to the provider",
    );
  });

  it('ends the stream when the server shuts down', async () => {
    const other = await database.buildApp({ clock: clock.now });
    const url = await other.listen({ host: '127.0.0.1', port: 0 });
    const stream = await openStream(url, await registerEnterprise(other));
    await other.close();
    await waitUntil(() => stream.isClosed(), 'the stream ends');
  });

  it('ends the stream at once when its session signs out, and keeps the user’s other sessions', async () => {
    const { email, auth } = await registerUser(app, {
      role: 'enterprise',
      organization_name: 'Two Laptops',
    });
    const other = authResponseSchema.parse(
      (await login(app, { email, password: TEST_PASSWORD })).json(),
    );
    const signingOut = await open(auth.access_token);
    const staying = await open(other.access_token);

    const response = await app.inject({
      method: 'POST',
      url: apiPaths.auth.logout,
      payload: { refresh_token: auth.refresh_token },
    });
    expect(response.statusCode).toBe(200);
    await waitUntil(() => signingOut.isClosed(), 'the signed-out stream ends');

    // The other sign-in still hears its changes.
    const purchase = await app.inject({
      method: 'POST',
      url: apiPaths.payment.addCredits,
      headers: bearer(other.access_token),
      payload: { amount: 25 },
    });
    expect(purchase.statusCode, purchase.body).toBe(200);
    await waitUntil(() => kindsOf(staying).includes('balance'), 'the other session hears it');
    expect(staying.isClosed()).toBe(false);
  });

  it('ends the stream when its access token expires, so a signed-out session stops hearing', async () => {
    // Tokens carry whole seconds (iat is rounded down), so a 1 s token may already be expired
    // when it is first used; 2 s leaves at least one second to open the stream.
    const shortLived = await database.buildApp({ config: { accessTokenTtlSeconds: 2 } });
    try {
      const url = await shortLived.listen({ host: '127.0.0.1', port: 0 });
      const stream = await openStream(url, await registerEnterprise(shortLived));
      await waitUntil(() => stream.isClosed(), 'the stream ends');
    } finally {
      await shortLived.close();
    }
  });
});
