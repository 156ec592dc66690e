import {
  guessedPrimeSieveCheat,
  paddedFibonacciCheat,
  projectedMatrixCheat,
  type CheatOutput,
} from '@fabric/compute/testing';
import { agentPaths, ERROR_CODES, type JobType, type Lease } from '@fabric/contract';
import { describe, expect, it } from 'vitest';
import {
  agentCall,
  DEFAULT_USAGE,
  enrollNode,
  getJob,
  lease,
  leaseJob,
  registerEnterprise,
  registerProvider,
  submitJob,
} from './support/compute-network.ts';
import { describeEachDatabase } from './support/databases.ts';
import { balanceOf, moneyHarness } from './support/money.ts';
import { honestProof, reportResult } from './support/proofs.ts';

// "Results that cost nothing to fake": an agent commits to its result before it learns the
// challenge, then opens what the challenge chose, which the server recomputes. Each cheat below
// passed the old checks and was paid; now it is refused, earns nothing and costs the enterprise
// nothing, and the job completes on an honest node.

const MINUTE = 60_000;

const cheats: {
  jobType: JobType;
  params: Record<string, unknown>;
  cheat: (leased: Lease) => CheatOutput;
}[] = [
  {
    jobType: 'matrix_multiply',
    params: { size: 256, seed: 9 },
    cheat: (leased) => projectedMatrixCheat(leased.params, leased.challenge_seed),
  },
  {
    jobType: 'prime_sieve',
    params: { limit: 300_000_000 },
    cheat: (leased) => guessedPrimeSieveCheat(leased.params),
  },
  {
    jobType: 'fibonacci',
    params: { n: 200_000 },
    cheat: (leased) => paddedFibonacciCheat(leased.params),
  },
];

describeEachDatabase('commit, challenge, open: cheap results are refused', (database) => {
  const harness = moneyHarness(database);

  async function leasedJob(jobType: JobType, params: Record<string, unknown>) {
    const provider = await registerProvider(harness.app);
    const enterprise = await registerEnterprise(harness.app, { credits: 100 });
    const node = await enrollNode(harness.app, provider);
    const job = await submitJob(harness.app, enterprise, { job_type: jobType, params });
    const leased = await leaseJob(harness.app, node.deviceToken);
    return { provider, enterprise, deviceToken: node.deviceToken, job, leased };
  }

  describe.each(cheats)('$jobType $params', ({ jobType, params, cheat }) => {
    it('refuses the cheat unpaid and free, then completes and bills the honest run', async () => {
      const { provider, enterprise, deviceToken, job, leased } = await leasedJob(jobType, params);
      const cheatOutput = cheat(leased);
      harness.clock.advanceBy(MINUTE);
      const refused = await reportResult(
        harness.app,
        deviceToken,
        leased,
        cheatOutput.result,
        { wall_ms: MINUTE, cpu_ms: MINUTE, peak_memory_bytes: 1_048_576 },
        cheatOutput,
      );
      expect(refused.statusCode, refused.body).toBe(200);
      expect(refused.json()).toMatchObject({ accepted: false });

      const afterCheat = await getJob(harness.app, enterprise, job.id);
      expect(afterCheat.status).toBe('queued');
      expect(afterCheat.actual_cost).toBeNull();
      expect((await balanceOf(harness.app, provider)).pending_earnings).toBe(0);
      // The cheat's node is not leased the job again.
      expect(await lease(harness.app, deviceToken)).toBeNull();

      const honest = await enrollNode(harness.app, await registerProvider(harness.app));
      const honestLease = await leaseJob(harness.app, honest.deviceToken);
      expect(honestLease.job_id).toBe(job.id);
      const accepted = await reportResult(
        harness.app,
        honest.deviceToken,
        honestLease,
        honestProof(honestLease).result,
        DEFAULT_USAGE,
      );
      expect(accepted.json()).toEqual({ accepted: true, reason: null });
      const done = await getJob(harness.app, enterprise, job.id);
      expect(done.status).toBe('completed');
      expect((await balanceOf(harness.app, provider)).pending_earnings).toBe(0);
      expect((await balanceOf(harness.app, enterprise)).balance).toBeCloseTo(
        100 - (done.actual_cost ?? 0),
        6,
      );
    });
  });

  it('opens nothing without a commit: complete first answers 409', async () => {
    const { deviceToken, leased } = await leasedJob('fibonacci', { n: 10 });
    const response = await agentCall(harness.app, deviceToken, agentPaths.complete(leased.job_id), {
      lease_id: leased.lease_id,
      opening: {},
    });
    expect(response.statusCode).toBe(409);
    const body = response.json<{ code: string; message: string }>();
    expect(body.code).toBe(ERROR_CODES.conflict);
    expect(body.message).toMatch(/Commit the result first/);
  });

  it('answers a repeated commit with the same challenge, and refuses a changed one', async () => {
    const { deviceToken, leased } = await leasedJob('prime_sieve', { limit: 100_000_000 });
    const proof = honestProof(leased);
    const { result } = proof;
    const commit = (body: Record<string, unknown>) =>
      agentCall(harness.app, deviceToken, agentPaths.commit(leased.job_id), {
        lease_id: leased.lease_id,
        usage: DEFAULT_USAGE,
        ...body,
      });
    const first = await commit({ result, commitment: proof.commitment });
    expect(first.statusCode, first.body).toBe(200);
    const again = await commit({ result, commitment: proof.commitment });
    expect(again.json()).toEqual(first.json());
    // Having seen the challenge, the node may not move its counts to dodge it.
    const counts = (proof.commitment.segment_counts as number[]).slice();
    counts[0] = (counts[0] ?? 0) + 1;
    counts[1] = (counts[1] ?? 0) - 1;
    const changed = await commit({ result, commitment: { segment_counts: counts } });
    expect(changed.statusCode).toBe(409);
    expect(changed.json<{ message: string }>().message).toMatch(/already committed/);
  });

  it('names the field of a commitment or opening that does not fit the type', async () => {
    const { deviceToken, leased } = await leasedJob('matrix_multiply', { size: 8 });
    const proof = honestProof(leased);
    const badCommit = await agentCall(harness.app, deviceToken, agentPaths.commit(leased.job_id), {
      lease_id: leased.lease_id,
      result: proof.result,
      commitment: { merkle_root: 'not hex' },
      usage: DEFAULT_USAGE,
    });
    expect(badCommit.statusCode).toBe(400);
    expect(badCommit.json()).toMatchObject({ field: 'commitment.merkle_root' });

    const good = await agentCall(harness.app, deviceToken, agentPaths.commit(leased.job_id), {
      lease_id: leased.lease_id,
      result: proof.result,
      commitment: proof.commitment,
      usage: DEFAULT_USAGE,
    });
    expect(good.statusCode).toBe(200);
    const badOpening = await agentCall(
      harness.app,
      deviceToken,
      agentPaths.complete(leased.job_id),
      { lease_id: leased.lease_id, opening: { rows: [{ index: 0, data: '!!', path: [] }] } },
    );
    expect(badOpening.statusCode).toBe(400);
    expect(badOpening.json()).toMatchObject({ field: 'opening.rows.0.data' });
  });
});
