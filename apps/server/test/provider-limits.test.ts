import { expect, it } from 'vitest';
import {
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
import { moneyHarness } from './support/money.ts';

// "Unlimited nodes": one provider enrolled 60 devices in 1.5 s and could take the whole queue.
// A provider account has at most MAX_NODES_PER_PROVIDER enrolled nodes, even when they enroll
// at the same moment, and all its nodes together take at most PROVIDER_LEASES_PER_MINUTE leases.

describeEachDatabase('per-provider limits on nodes and leases', (database) => {
  const harness = moneyHarness(database, {
    maxNodesPerProvider: 3,
    providerLeasesPerMinute: 2,
  });
  const { clock } = harness;

  it('refuses nodes beyond the limit, even enrolled all at once, and names the limit', async () => {
    const provider = await registerProvider(harness.app);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => enrollRequest(harness.app, provider)),
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
    const again = await enrollRequest(harness.app, provider, {
      device_id: enrolled[0]?.json<{ node: { device_id: string } }>().node.device_id,
    });
    expect(again.statusCode).toBe(200);
  });

  it('leases a provider at most the configured number of jobs a minute across its nodes', async () => {
    const enterprise = await registerEnterprise(harness.app, { credits: 20 });
    const provider = await registerProvider(harness.app);
    const one = await enrollNode(harness.app, provider);
    const two = await enrollNode(harness.app, provider);
    for (let count = 0; count < 3; count += 1) await submitJob(harness.app, enterprise);

    const first = await leaseJob(harness.app, one.deviceToken);
    await completeRequest(harness.app, one.deviceToken, first, primeSieveResult(30));
    await leaseJob(harness.app, two.deviceToken);
    expect(await lease(harness.app, one.deviceToken)).toBeNull();
    // Another provider's node is not held back by this one's limit.
    const stranger = await enrollNode(harness.app, await registerProvider(harness.app));
    expect(await lease(harness.app, stranger.deviceToken)).not.toBeNull();

    await submitJob(harness.app, enterprise);
    clock.advanceBy(61_000);
    expect(await lease(harness.app, one.deviceToken)).not.toBeNull();
  });
});
