import {
  agentPaths,
  jobCostModel,
  LEASE_TIMEOUT_SECONDS,
  providerShareMicros,
  usageCostMicros,
  type Lease,
} from '@fabric/contract';
import { eq, inArray } from 'drizzle-orm';
import { expect, inject, it } from 'vitest';
import { jobAttempts, jobs, ledgerTransactions } from '../src/db/schema.ts';
import { createRepositories } from '../src/repositories/index.ts';
import { registerUser } from '../test/support/auth.ts';
import {
  agentCall,
  enrollNode,
  heartbeat,
  lease,
  submitJob,
  type EnrolledNode,
} from '../test/support/compute-network.ts';
import { describeEachDatabase } from '../test/support/databases.ts';
import { addCreditsRequest, expectLedgerSound, moneyHarness } from '../test/support/money.ts';
import { honestProof, reportResult } from '../test/support/proofs.ts';
import { sumOf } from './support/agents.ts';
import { databaseLabel, recordFault } from './support/report.ts';

// Agent churn: 30 agents of 5 providers lease 30 jobs at once; a fifth of them die mid-job (half
// before committing a result, half between commit and complete) and never call again; the rest
// finish. Once the leases of the dead time out, the sweep puts their jobs back in the queue and
// the living agents run them. Then the dead agents come back and report their old leases. Two
// rounds, so agents that died in the first take part in the second. Every job must end exactly
// once (completed), be charged exactly once, and the enterprise be debited once per job.

const PROVIDERS = 5;
const AGENTS_PER_PROVIDER = 6;
const AGENTS = PROVIDERS * AGENTS_PER_PROVIDER;
const ROUNDS = 2;
/** A fifth of the agents die in each round. */
const KILLED_PER_ROUND = AGENTS / 5;
const CREDITS_USD = 200;
/** A sieve to 10^7: one 2^24-number span, verified in milliseconds. */
const JOB = { job_type: 'prime_sieve' as const, params: { limit: 10_000_000 } };
const WORK_MS = 2000;
const USAGE = { wall_ms: WORK_MS, cpu_ms: WORK_MS, peak_memory_bytes: 1_048_576 };

interface Agent {
  provider: string;
  node: EnrolledNode;
}

describeEachDatabase('agent churn', (database) => {
  const harness = moneyHarness(database);
  const reportDir = inject('faultsReportDir');

  it(
    'ends and bills every job exactly once while a fifth of the agents die mid-job',
    { timeout: 120_000 },
    async () => {
      const { app, clock } = harness;
      const { db } = await database.connection();
      const repositories = createRepositories(db);

      const customer = (await registerUser(app, { role: 'enterprise' })).auth;
      const bought = await addCreditsRequest(app, customer.access_token, CREDITS_USD);
      expect(bought.statusCode, bought.body).toBe(200);
      const agents: Agent[] = [];
      for (let p = 0; p < PROVIDERS; p += 1) {
        const provider = (await registerUser(app, { role: 'node_provider', name: `P${p}` })).auth;
        for (let a = 0; a < AGENTS_PER_PROVIDER; a += 1) {
          agents.push({
            provider: provider.user_id,
            node: await enrollNode(app, provider.access_token),
          });
        }
      }

      const allJobIds: string[] = [];
      const zombieAnswers: number[] = [];
      let killedTotal = 0;
      for (let round = 0; round < ROUNDS; round += 1) {
        const jobIds = new Set<string>();
        for (let index = 0; index < AGENTS; index += 1) {
          jobIds.add((await submitJob(app, customer.access_token, JOB)).id);
        }
        allJobIds.push(...jobIds);

        // Every agent asks for work at once: one job each.
        const leased = await Promise.all(agents.map((agent) => lease(app, agent.node.deviceToken)));
        const working = agents.map((agent, index) => ({ agent, leased: leased[index] as Lease }));
        for (const { leased: one } of working) expect(jobIds.has(one.job_id)).toBe(true);
        expect(new Set(working.map(({ leased: one }) => one.job_id)).size).toBe(AGENTS);

        // A different fifth each round: half die before committing, half between commit and complete.
        const killed = new Set(
          Array.from({ length: KILLED_PER_ROUND }, (_, k) => (round * 7 + k * 5) % AGENTS),
        );
        killedTotal += killed.size;
        clock.advanceBy(WORK_MS);
        const dead: { agent: Agent; leased: Lease }[] = [];
        await Promise.all(
          working.map(async ({ agent, leased: one }, index) => {
            if (killed.has(index)) {
              dead.push({ agent, leased: one });
              if (dead.length % 2 === 0) {
                const proof = honestProof(one);
                const committed = await agentCall(
                  app,
                  agent.node.deviceToken,
                  agentPaths.commit(one.job_id),
                  {
                    lease_id: one.lease_id,
                    result: proof.result,
                    commitment: proof.commitment,
                    usage: USAGE,
                  },
                );
                expect(committed.statusCode, committed.body).toBe(200);
              }
              return; // killed: no complete, no heartbeat, ever again this round
            }
            const done = await reportResult(
              app,
              agent.node.deviceToken,
              one,
              honestProof(one).result,
              USAGE,
            );
            expect(done.json()).toEqual({ accepted: true, reason: null });
          }),
        );

        // The living agents keep heartbeating while the dead ones' leases time out.
        clock.advanceBy((LEASE_TIMEOUT_SECONDS + 1) * 1000);
        const living = agents.filter((_, index) => !killed.has(index));
        await Promise.all(living.map((agent) => heartbeat(app, agent.node.deviceToken)));
        await app.scheduler.sweep();

        // The living agents take the jobs back and finish them.
        const retried = await Promise.all(
          living.map((agent) => lease(app, agent.node.deviceToken)),
        );
        const second = living.flatMap((agent, index) => {
          const one = retried[index];
          return one ? [{ agent, leased: one }] : [];
        });
        expect(second.map(({ leased: one }) => one.job_id).sort()).toEqual(
          dead.map(({ leased: one }) => one.job_id).sort(),
        );
        clock.advanceBy(WORK_MS);
        await Promise.all(
          second.map(async ({ agent, leased: one }) => {
            const done = await reportResult(
              app,
              agent.node.deviceToken,
              one,
              honestProof(one).result,
              USAGE,
            );
            expect(done.json()).toEqual({ accepted: true, reason: null });
          }),
        );

        // The dead come back and report their old leases: refused, nothing moves.
        await Promise.all(
          dead.map(async ({ agent, leased: one }) => {
            const late = await reportResult(
              app,
              agent.node.deviceToken,
              one,
              honestProof(one).result,
              USAGE,
            );
            zombieAnswers.push(late.statusCode);
          }),
        );
      }

      // Every job ended once, completed, after one expired attempt when its agent died.
      const rows = await db
        .select({
          id: jobs.id,
          status: jobs.status,
          cost: jobs.actualCostMicros,
          node: jobs.assignedNodeId,
        })
        .from(jobs)
        .where(eq(jobs.ownerId, customer.user_id));
      expect(rows).toHaveLength(allJobIds.length);
      const attempts = await db
        .select({ jobId: jobAttempts.jobId, outcome: jobAttempts.outcome })
        .from(jobAttempts)
        .where(inArray(jobAttempts.jobId, allJobIds));
      const postings = await db
        .select({
          jobId: ledgerTransactions.jobId,
          kind: ledgerTransactions.kind,
          nodeId: ledgerTransactions.nodeId,
        })
        .from(ledgerTransactions)
        .where(inArray(ledgerTransactions.jobId, allJobIds));
      // Each completed job is billed its work (the cost model at its params), once.
      const work = jobCostModel(JOB.job_type, JOB.params).referenceCpuMs;
      const charge = usageCostMicros('prime_sieve', work, { includesJobFee: true });
      let endedOnce = 0;
      let billedOnce = 0;
      for (const row of rows) {
        const ofJob = attempts.filter((attempt) => attempt.jobId === row.id);
        const completedAttempts = ofJob.filter((attempt) => attempt.outcome === 'completed').length;
        if (row.status === 'completed' && completedAttempts === 1) endedOnce += 1;
        const charges = postings.filter(
          (posting) => posting.jobId === row.id && posting.kind === 'job_charge',
        );
        const releases = postings.filter(
          (posting) => posting.jobId === row.id && posting.kind === 'hold_release',
        );
        if (charges.length === 1 && releases.length === 0 && row.cost === charge) billedOnce += 1;
        // The charge pays the node that produced the accepted result.
        expect(charges.map((posting) => posting.nodeId)).toEqual([row.node]);
        expect(
          ofJob.every(
            (attempt) => attempt.outcome === 'completed' || attempt.outcome === 'expired',
          ),
        ).toBe(true);
      }

      recordFault(reportDir, {
        section: 'churn',
        database: databaseLabel(database.kind),
        agents: AGENTS,
        killed: killedTotal,
        jobs: rows.length,
        endedOnce,
        billedOnce,
      });
      expect(endedOnce).toBe(rows.length);
      expect(billedOnce).toBe(rows.length);
      // Late reports of dead leases are refused (409: the lease is no longer valid).
      expect(zombieAnswers.every((status) => status === 409)).toBe(true);
      expect(zombieAnswers).toHaveLength(ROUNDS * KILLED_PER_ROUND);

      // The enterprise was debited once per job; the providers earned their share of each, once.
      const enterpriseBalances = await repositories.ledger.balancesOfUser(customer.user_id);
      expect(enterpriseBalances.enterprise_holds).toBe(0);
      expect(enterpriseBalances.enterprise_credits).toBe(CREDITS_USD * 1e6 - rows.length * charge);
      const earned = await Promise.all(
        [...new Set(agents.map((agent) => agent.provider))].map(
          async (provider) => (await repositories.ledger.balancesOfUser(provider)).provider_pending,
        ),
      );
      expect(sumOf(earned)).toBe(rows.length * providerShareMicros(charge));
      await expectLedgerSound(database);
    },
  );
});
