import type { FastifyInstance } from 'fastify';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { createManualClock } from './support/clock.ts';
import {
  cancelUnfinishedJobs,
  completeRequest,
  enrollNode,
  enrollRequest,
  lease,
  leaseJob,
  primeSieveResult,
  registerEnterprise,
  registerProvider,
  submitJob,
} from './support/compute-network.ts';
import { describeEachDatabase } from './support/databases.ts';
import { expectLedgerSound } from './support/money.ts';

// "Unlimited nodes": one provider enrolled 60 devices in 1.5 s and could take the whole queue.
// A provider account has at most MAX_NODES_PER_PROVIDER enrolled nodes, even when they enroll
// at the same moment, and all its nodes together take at most PROVIDER_LEASES_PER_MINUTE leases.

describeEachDatabase('per-provider limits on nodes and leases', (database) => {
  let app: FastifyInstance;
  const clock = createManualClock(new Date('2026-11-20T12:00:00.000Z'));

  beforeAll(async () => {
    app = await database.buildApp({
      clock: clock.now,
      config: {
        accessTokenTtlSeconds: 400 * 86_400,
        maxNodesPerProvider: 3,
        providerLeasesPerMinute: 2,
      },
    });
  });
  afterEach(async () => {
    await cancelUnfinishedJobs(database);
    await expectLedgerSound(database);
  });

  it('refuses nodes beyond the limit, even enrolled all at once, and names the limit', async () => {
    const provider = await registerProvider(app);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => enrollRequest(app, provider)),
    );
    const enrolled = answers.filter((answer) => answer.statusCode === 201);
    const refused = answers.filter((answer) => answer.statusCode === 409);
    expect(enrolled).toHaveLength(3);
    expect(refused).toHaveLength(5);
    expect(refused[0]?.json()).toMatchObject({
      message:
        'This account has reached its limit of 3 enrolled nodes. Unenroll a node before adding another.',
    });
    // Enrolling one of the same devices again is not a new node.
    const again = await enrollRequest(app, provider, {
      device_id: enrolled[0]?.json<{ node: { device_id: string } }>().node.device_id,
    });
    expect(again.statusCode).toBe(200);
  });

  it('leases a provider at most the configured number of jobs a minute across its nodes', async () => {
    const enterprise = await registerEnterprise(app, { credits: 20 });
    const provider = await registerProvider(app);
    const one = await enrollNode(app, provider);
    const two = await enrollNode(app, provider);
    for (let count = 0; count < 3; count += 1) await submitJob(app, enterprise);

    const first = await leaseJob(app, one.deviceToken);
    await completeRequest(app, one.deviceToken, first, primeSieveResult(30));
    await leaseJob(app, two.deviceToken);
    expect(await lease(app, one.deviceToken)).toBeNull();
    // Another provider's node is not held back by this one's limit.
    const stranger = await enrollNode(app, await registerProvider(app));
    expect(await lease(app, stranger.deviceToken)).not.toBeNull();

    await submitJob(app, enterprise);
    clock.advanceBy(61_000);
    expect(await lease(app, one.deviceToken)).not.toBeNull();
  });
});
