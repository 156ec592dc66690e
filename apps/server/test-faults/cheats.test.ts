import {
  guessedPrimeSieveCheat,
  paddedFibonacciCheat,
  projectedMatrixCheat,
  type CheatOutput,
} from '@fabric/compute/testing';
import {
  agentPaths,
  jobCostModel,
  providerShareMicros,
  usageCostMicros,
  type JobType,
  type JobUsage,
  type Lease,
} from '@fabric/contract';
import type { FastifyInstance } from 'fastify';
import { describe, expect, inject, it } from 'vitest';
import { createRepositories } from '../src/repositories/index.ts';
import { registerUser } from '../test/support/auth.ts';
import type { ManualClock } from '../test/support/clock.ts';
import {
  agentCall,
  enrollNode,
  getJob,
  lease,
  leaseJob,
  PRIME_SIEVE_1E11_RESULT,
  submitJob,
} from '../test/support/compute-network.ts';
import { describeEachDatabase, type TestDatabase } from '../test/support/databases.ts';
import { addCreditsRequest, moneyHarness } from '../test/support/money.ts';
import { honestProof, reportResult, type HonestProof } from '../test/support/proofs.ts';
import { toMicros, workTogether } from './support/agents.ts';
import { databaseLabel, recordFault, type CheatRow } from './support/report.ts';

// Cheating agents, one test per job type and kind of cheat, each next to the same job run
// honestly by a node of another provider. A cheat earns the money its provider's balance gained
// beyond what the same work honestly reported earns: it must be $0.00, and the enterprise pays
// only for the honest run. The cheats:
// - the cheap result of each type (@fabric/compute/testing): a projection instead of the matrix
//   product, a prime count guessed inside the analytic bounds, a Fibonacci value padded between
//   its right head and tail; each claims the usage of the honest run;
// - inflated usage: the honest result, with 1000 × the CPU time the work took;
// - a fake final (non-retryable) failure after the work's time, claiming 1000 × its CPU time;
// - a commitment changed after seeing the challenge (409), then the cheap result opened anyway.
//
// The honest run is a device at the reference speed of the cost model (packages/contract
// cost-model.ts) with the 4 cores the test nodes declare: the reference CPU time, spread over 4
// cores for the parallel kernels (matrix, sieve), on one core for Fibonacci; the manual clock
// moves by that wall time while the node reports progress.

const NODE_CORES = 4;
const INFLATION = 1000;
const CREDITS_USD = 100;

interface JobUnderTest {
  jobType: JobType;
  params: Record<string, unknown>;
  cheapCheat: string;
  cheap: (leased: Lease) => CheatOutput;
}

const JOBS: JobUnderTest[] = [
  {
    jobType: 'matrix_multiply',
    params: { size: 512, seed: 9 },
    cheapCheat: 'cheap projection',
    cheap: (leased) => projectedMatrixCheat(leased.params, leased.challenge_seed),
  },
  {
    jobType: 'prime_sieve',
    params: { limit: PRIME_SIEVE_1E11_RESULT.limit },
    cheapCheat: 'guessed answer',
    cheap: (leased) => guessedPrimeSieveCheat(leased.params),
  },
  {
    jobType: 'fibonacci',
    params: { n: 200_000 },
    cheapCheat: 'padded answer',
    cheap: (leased) => paddedFibonacciCheat(leased.params),
  },
];

/** What an honest reference-speed device with NODE_CORES cores spends on the job. */
function honestEffort(jobType: JobType, params: Record<string, unknown>) {
  const model = jobCostModel(jobType, params);
  const cpuMs = Math.max(1, model.referenceCpuMs);
  const wallMs = Math.ceil(cpuMs / (model.isParallel ? NODE_CORES : 1));
  return { cpuMs, wallMs };
}

function usageOf(cpuMs: number, wallMs: number): JobUsage {
  return { wall_ms: wallMs, cpu_ms: cpuMs, peak_memory_bytes: 64 * 1_048_576 };
}

/** The node works on the lease for `wallMs` of the server's clock, reporting progress as it goes. */
function work(
  app: FastifyInstance,
  clock: ManualClock,
  deviceToken: string,
  leased: Lease,
  wallMs: number,
): Promise<void> {
  return workTogether(app, clock, [{ deviceToken, leased }], wallMs);
}

describeEachDatabase('cheating agents earn nothing', (database: TestDatabase) => {
  const harness = moneyHarness(database);
  const reportDir = inject('faultsReportDir');
  const label = databaseLabel(database.kind);

  async function balancesOf(userId: string) {
    const repositories = createRepositories((await database.connection()).db);
    return repositories.ledger.balancesOfUser(userId);
  }
  const pendingMicros = async (userId: string) => (await balancesOf(userId)).provider_pending;

  function record(row: Omit<CheatRow, 'section' | 'database'>): void {
    const full: CheatRow = { section: 'cheat', database: label, ...row };
    recordFault(reportDir, full);
  }

  /** An enterprise's job leased by a cheat's node; an honest provider's node enrolled after. */
  async function leasedByCheat(subject: JobUnderTest) {
    const { app } = harness;
    const cheater = (await registerUser(app, { role: 'node_provider', name: 'Cheat' })).auth;
    const customer = (await registerUser(app, { role: 'enterprise' })).auth;
    const enterprise = customer.access_token;
    const bought = await addCreditsRequest(app, enterprise, CREDITS_USD);
    expect(bought.statusCode, bought.body).toBe(200);
    const cheatNode = await enrollNode(app, cheater.access_token);
    const job = await submitJob(app, enterprise, {
      job_type: subject.jobType,
      params: subject.params,
    });
    const leased = await leaseJob(app, cheatNode.deviceToken);
    expect(leased.job_id).toBe(job.id);
    const honest = (await registerUser(app, { role: 'node_provider', name: 'Honest' })).auth;
    const honestNode = await enrollNode(app, honest.access_token);
    return { cheater, customer, enterprise, cheatNode, job, leased, honest, honestNode };
  }

  /** The honest node leases `jobId`, works the reference time and reports what it did. */
  async function runHonestly(
    setup: Awaited<ReturnType<typeof leasedByCheat>>,
    subject: JobUnderTest,
    jobId: string,
  ) {
    const { app, clock } = harness;
    const effort = honestEffort(subject.jobType, subject.params);
    const leased = await leaseJob(app, setup.honestNode.deviceToken);
    expect(leased.job_id).toBe(jobId);
    const proof = honestProof(leased);
    await work(app, clock, setup.honestNode.deviceToken, leased, effort.wallMs);
    const done = await reportResult(
      app,
      setup.honestNode.deviceToken,
      leased,
      proof.result,
      usageOf(effort.cpuMs, effort.wallMs),
      proof,
    );
    expect(done.json()).toEqual({ accepted: true, reason: null });
    const completed = await getJob(app, setup.enterprise, jobId);
    expect(completed.status).toBe('completed');
    const costMicros = toMicros(completed.actual_cost);
    // Billed for the work its params need (the cost model), as its Job Details say.
    expect(costMicros).toBe(
      usageCostMicros(subject.jobType, effort.cpuMs, { includesJobFee: true }),
    );
    expect(completed.billed_cpu_ms).toBe(effort.cpuMs);
    return { costMicros, leased };
  }

  /** After a refused cheat: the cheat earned nothing, the job ran honestly and was paid once. */
  async function expectCheatUnpaid(
    setup: Awaited<ReturnType<typeof leasedByCheat>>,
    subject: JobUnderTest,
    cheat: string,
  ) {
    const { app } = harness;
    const queued = await getJob(app, setup.enterprise, setup.job.id);
    expect(queued.status).toBe('queued');
    expect(queued.actual_cost).toBeNull();
    // The cheat's node is not leased the job again.
    expect(await lease(app, setup.cheatNode.deviceToken)).toBeNull();
    expect(await pendingMicros(setup.cheater.user_id)).toBe(0);
    const { costMicros } = await runHonestly(setup, subject, setup.job.id);
    // Still nothing once the job has completed and been paid.
    const earnedMicros = await pendingMicros(setup.cheater.user_id);
    record({ jobType: subject.jobType, cheat, earnedMicros, honestCostMicros: costMicros });
    expect(earnedMicros).toBe(0);
    expect(await pendingMicros(setup.honest.user_id)).toBe(providerShareMicros(costMicros));
    // The enterprise paid for the honest run only.
    const paid = await balancesOf(setup.customer.user_id);
    expect(paid.enterprise_holds).toBe(0);
    expect(paid.enterprise_credits).toBe(CREDITS_USD * 1e6 - costMicros);
  }

  describe.each(JOBS)('$jobType', (subject) => {
    const effort = honestEffort(subject.jobType, subject.params);

    it(`${subject.cheapCheat}: refused, unpaid, and the job is paid once to the honest node`, async () => {
      const setup = await leasedByCheat(subject);
      const cheat = subject.cheap(setup.leased);
      harness.clock.advanceBy(effort.wallMs);
      const refused = await reportResult(
        harness.app,
        setup.cheatNode.deviceToken,
        setup.leased,
        cheat.result,
        usageOf(effort.cpuMs, effort.wallMs),
        cheat,
      );
      expect(refused.statusCode, refused.body).toBe(200);
      expect(refused.json()).toMatchObject({ accepted: false });
      await expectCheatUnpaid(setup, subject, subject.cheapCheat);
    });

    it('changed commitment after the challenge: 409, and the first commitment is refused unpaid', async () => {
      const { app } = harness;
      const setup = await leasedByCheat(subject);
      const cheat = subject.cheap(setup.leased);
      harness.clock.advanceBy(effort.wallMs);
      const commit = (proof: Pick<HonestProof, 'result' | 'commitment'>) =>
        agentCall(app, setup.cheatNode.deviceToken, agentPaths.commit(setup.leased.job_id), {
          lease_id: setup.leased.lease_id,
          result: proof.result,
          commitment: proof.commitment,
          usage: usageOf(effort.cpuMs, effort.wallMs),
        });
      const first = await commit(cheat);
      expect(first.statusCode, first.body).toBe(200);
      // Having seen the challenge, the cheat computes what it needs and commits to that instead.
      const changed = await commit(honestProof(setup.leased));
      expect(changed.statusCode, changed.body).toBe(409);
      expect(changed.json<{ message: string }>().message).toMatch(/already committed/);
      // Only the first commitment can be opened: the cheap one, which the challenge refuses.
      const opened = await reportResult(
        app,
        setup.cheatNode.deviceToken,
        setup.leased,
        cheat.result,
        usageOf(effort.cpuMs, effort.wallMs),
        cheat,
      );
      expect(opened.json()).toMatchObject({ accepted: false });
      await expectCheatUnpaid(setup, subject, 'changed commitment');
    });

    it('fake final failure with inflated usage: free, unpaid, and the job runs elsewhere', async () => {
      const { app } = harness;
      const setup = await leasedByCheat(subject);
      await work(app, harness.clock, setup.cheatNode.deviceToken, setup.leased, effort.wallMs);
      const failed = await agentCall(
        app,
        setup.cheatNode.deviceToken,
        agentPaths.fail(setup.leased.job_id),
        {
          lease_id: setup.leased.lease_id,
          error: 'kernel crashed: out of memory',
          retryable: false,
          usage: usageOf(effort.cpuMs * INFLATION, effort.wallMs),
        },
      );
      expect(failed.statusCode, failed.body).toBe(200);
      await expectCheatUnpaid(setup, subject, 'fake failure');
    });

    it('inflated usage on an honest result: billed and paid exactly as the honest run', async () => {
      const { app } = harness;
      const setup = await leasedByCheat(subject);
      // The cheat does the work in the honest time, then reports 1000 × its CPU time.
      const proof = honestProof(setup.leased);
      await work(app, harness.clock, setup.cheatNode.deviceToken, setup.leased, effort.wallMs);
      const done = await reportResult(
        app,
        setup.cheatNode.deviceToken,
        setup.leased,
        proof.result,
        usageOf(effort.cpuMs * INFLATION, effort.wallMs),
        proof,
      );
      expect(done.json()).toEqual({ accepted: true, reason: null });
      const cheatCostMicros = toMicros(
        (await getJob(app, setup.enterprise, setup.job.id)).actual_cost,
      );
      // The same job, run honestly by the honest node.
      const twin = await submitJob(app, setup.enterprise, {
        job_type: subject.jobType,
        params: subject.params,
      });
      const { costMicros } = await runHonestly(setup, subject, twin.id);

      const cheatEarned = await pendingMicros(setup.cheater.user_id);
      const honestEarned = await pendingMicros(setup.honest.user_id);
      record({
        jobType: subject.jobType,
        cheat: 'inflated usage',
        earnedMicros: cheatEarned - honestEarned,
        honestCostMicros: costMicros,
      });
      // The bill is the verified work, whatever the device says it used.
      expect(cheatCostMicros).toBe(costMicros);
      expect(cheatEarned).toBe(honestEarned);
      const paid = await balancesOf(setup.customer.user_id);
      expect(paid.enterprise_credits).toBe(CREDITS_USD * 1e6 - 2 * costMicros);
    });
  });
});
