import {
  apiPaths,
  IDEMPOTENCY_KEY_HEADER,
  jobSchema,
  providerShareMicros,
  type AuthResponse,
  type Lease,
} from '@fabric/contract';
import { and, eq, inArray, like } from 'drizzle-orm';
import { expect, inject, it } from 'vitest';
import { creditPurchases, jobs, ledgerTransactions, payouts } from '../src/db/schema.ts';
import { createRepositories } from '../src/repositories/index.ts';
import { bearer, registerUser } from '../test/support/auth.ts';
import {
  enrollNode,
  leaseJob,
  PRIME_SIEVE_1E11_RESULT,
  type EnrolledNode,
} from '../test/support/compute-network.ts';
import { describeEachDatabase } from '../test/support/databases.ts';
import {
  addCreditsRequest,
  completeWithCpu,
  connectSandboxBank,
  expectLedgerSound,
  moneyHarness,
  payoutRequest,
} from '../test/support/money.ts';
import { sumOf, toMicros, workTogether } from './support/agents.ts';
import { databaseLabel, recordFault } from './support/report.ts';

// Everything that moves money, at once: top-ups (each key sent three times together, and some
// without a key), submits under keys (three copies each), job settlements (honest completes), the
// month's settlement run three times over, and payouts (same and different keys, together asking
// for more than is available). Afterwards each key moved money exactly once, every balance is the
// sum of the operations that were acknowledged, and the ledger audit is sound.

const ENTERPRISES = 3;
const PROVIDERS = 3;
const NODES_PER_PROVIDER = 2;
const COPIES = 3;
const TOP_UP_KEYS = 6;
const KEYLESS_TOP_UPS = 3;
const SUBMIT_KEYS = 3;
/** Four keys of $0.15 and one of $0.30 against $0.976 settled: not all of them can be paid. */
const PAYOUT_KEYS = [0.15, 0.15, 0.15, 0.15, 0.3];
const KEYLESS_PAYOUTS = [0.05, 0.05];
const INITIAL_CREDITS_USD = 40;
/** Each job runs a minute of the server's clock on 4 + 1 cores and reports 300 CPU-seconds. */
const JOB_WALL_MS = 60_000;
const JOB_CPU_MS = 300_000;
const PRIME_JOB = { job_type: 'prime_sieve', params: { limit: PRIME_SIEVE_1E11_RESULT.limit } };

describeEachDatabase('ledger under concurrency', (database) => {
  const harness = moneyHarness(database);
  const reportDir = inject('faultsReportDir');

  function submitRequest(token: string, key?: string) {
    return harness.app.inject({
      method: 'POST',
      url: apiPaths.jobs.submit,
      headers: { ...bearer(token), ...(key ? { [IDEMPOTENCY_KEY_HEADER]: key } : {}) },
      payload: PRIME_JOB,
    });
  }

  /** Moves the clock to the second day of the next month (UTC), so this month can be settled. */
  function advanceIntoNextMonth() {
    const now = harness.clock.now();
    const target = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 2);
    harness.clock.advanceBy(target - now.getTime());
  }

  /** Every node leases one job (there is one queued per node) and works a minute on it. */
  async function leaseOneEach(
    nodes: EnrolledNode[],
  ): Promise<{ node: EnrolledNode; leased: Lease }[]> {
    const leases = [];
    for (const node of nodes)
      leases.push({ node, leased: await leaseJob(harness.app, node.deviceToken) });
    await workTogether(
      harness.app,
      harness.clock,
      leases.map(({ node, leased }) => ({ deviceToken: node.deviceToken, leased })),
      JOB_WALL_MS,
    );
    return leases;
  }

  it(
    'moves money once per key and per operation, whatever runs at the same time',
    { timeout: 120_000 },
    async () => {
      const { app } = harness;
      const { db } = await database.connection();
      const repositories = createRepositories(db);

      const enterprises: AuthResponse[] = [];
      for (let index = 0; index < ENTERPRISES; index += 1) {
        const auth = (await registerUser(app, { role: 'enterprise' })).auth;
        const bought = await addCreditsRequest(
          app,
          auth.access_token,
          INITIAL_CREDITS_USD,
          'initial',
        );
        expect(bought.statusCode, bought.body).toBe(200);
        enterprises.push(auth);
      }
      const providers: AuthResponse[] = [];
      const nodes: EnrolledNode[] = [];
      const ownerOfNode = new Map<string, string>();
      for (let index = 0; index < PROVIDERS; index += 1) {
        const auth = (await registerUser(app, { role: 'node_provider', name: 'P' })).auth;
        await connectSandboxBank(app, auth.access_token);
        for (let n = 0; n < NODES_PER_PROVIDER; n += 1) {
          const node = await enrollNode(app, auth.access_token);
          nodes.push(node);
          ownerOfNode.set(node.node.id, auth.user_id);
        }
        providers.push(auth);
      }
      const submitTwoEach = async () => {
        for (const enterprise of enterprises) {
          for (let n = 0; n < 2; n += 1) {
            const response = await submitRequest(enterprise.access_token);
            expect(response.statusCode, response.body).toBe(201);
          }
        }
      };

      // Last month: one job per node, completed; its earnings wait for this month's settlement.
      await submitTwoEach();
      const lastMonth = await leaseOneEach(nodes);
      for (const { node, leased } of lastMonth) {
        const done = await completeWithCpu(
          app,
          node.deviceToken,
          leased,
          PRIME_SIEVE_1E11_RESULT,
          JOB_CPU_MS,
        );
        expect(done.json()).toEqual({ accepted: true, reason: null });
      }
      advanceIntoNextMonth();
      // This month: one more job per node, running when everything below starts.
      await submitTwoEach();
      const thisMonth = await leaseOneEach(nodes);

      // Everything at once.
      const topUps = enterprises.flatMap((enterprise, e) => [
        ...Array.from({ length: TOP_UP_KEYS }, (_, k) => ({
          enterprise,
          key: `top-up-${k}`,
          amount: 1 + e + (k + 1) / 100,
        })),
        ...Array.from({ length: KEYLESS_TOP_UPS }, (_, k) => ({
          enterprise,
          key: undefined,
          amount: 0.5 + (e * 10 + k) / 100,
        })),
      ]);
      const submits = enterprises.flatMap((enterprise) =>
        Array.from({ length: SUBMIT_KEYS }, (_, k) => ({ enterprise, key: `submit-${k}` })),
      );
      const payoutAsks = providers.flatMap((provider) => [
        ...PAYOUT_KEYS.map((amount, k) => ({ provider, key: `payout-${k}`, amount })),
        ...KEYLESS_PAYOUTS.map((amount) => ({ provider, key: undefined, amount })),
      ]);
      const copiesOf = (key: string | undefined) => (key ? COPIES : 1);

      const topUpAnswers = topUps.map((topUp) =>
        Array.from({ length: copiesOf(topUp.key) }, () =>
          addCreditsRequest(app, topUp.enterprise.access_token, topUp.amount, topUp.key),
        ),
      );
      const submitAnswers = submits.map((submit) =>
        Array.from({ length: COPIES }, () =>
          submitRequest(submit.enterprise.access_token, submit.key),
        ),
      );
      const payoutAnswers = payoutAsks.map((ask) =>
        Array.from({ length: copiesOf(ask.key) }, () =>
          payoutRequest(app, ask.provider.access_token, ask.amount, ask.key),
        ),
      );
      const completes = thisMonth.map(({ node, leased }) =>
        completeWithCpu(app, node.deviceToken, leased, PRIME_SIEVE_1E11_RESULT, JOB_CPU_MS),
      );
      const settlements = Array.from({ length: COPIES }, () => app.payments.settle());
      const [topUpResults, submitResults, payoutResults, completeResults] = await Promise.all([
        Promise.all(topUpAnswers.map((copies) => Promise.all(copies))),
        Promise.all(submitAnswers.map((copies) => Promise.all(copies))),
        Promise.all(payoutAnswers.map((copies) => Promise.all(copies))),
        Promise.all(completes),
        Promise.all(settlements),
      ]);
      const requests =
        topUpAnswers.flat().length +
        submitAnswers.flat().length +
        payoutAnswers.flat().length +
        completes.length +
        settlements.length;

      let applied = 0;
      let lost = 0;
      let doubled = 0;
      /** One acknowledged operation found `rows` times in the database. */
      const tally = (rows: number, isAcknowledged: boolean) => {
        if (isAcknowledged && rows === 0) lost += 1;
        if (rows > 1) doubled += 1;
        if (rows > 0) applied += 1;
      };

      // Top-ups: every copy answered 200, each key bought once, each key-less request once.
      for (const answers of topUpResults) {
        for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
      }
      for (const enterprise of enterprises) {
        const rows = await db
          .select({
            key: creditPurchases.idempotencyKey,
            amount: creditPurchases.amountMicros,
            status: creditPurchases.status,
          })
          .from(creditPurchases)
          .where(eq(creditPurchases.userId, enterprise.user_id));
        for (const row of rows) expect(row.status).toBe('completed');
        for (const topUp of topUps.filter((t) => t.enterprise === enterprise)) {
          tally(
            rows.filter((row) =>
              topUp.key
                ? row.key === topUp.key
                : row.key === null && row.amount === toMicros(topUp.amount),
            ).length,
            true,
          );
        }
        expect(rows).toHaveLength(1 + TOP_UP_KEYS + KEYLESS_TOP_UPS);
      }

      // Submits: every copy of a key answered 201 with the same job.
      for (const answers of submitResults) {
        for (const answer of answers) expect(answer.statusCode, answer.body).toBe(201);
        const ids = new Set(answers.map((answer) => jobSchema.parse(answer.json()).id));
        expect(ids.size).toBe(1);
      }
      for (const [index, submit] of submits.entries()) {
        const rows = await db
          .select({ id: jobs.id })
          .from(jobs)
          .where(
            and(eq(jobs.ownerId, submit.enterprise.user_id), eq(jobs.idempotencyKey, submit.key)),
          );
        tally(rows.length, true);
        const answer = submitResults[index]?.[0];
        const jobId = answer ? jobSchema.parse(answer.json()).id : '';
        const holds = await db
          .select({ id: ledgerTransactions.id })
          .from(ledgerTransactions)
          .where(eq(ledgerTransactions.idempotencyKey, `job:${jobId}:hold`));
        expect(holds).toHaveLength(1);
      }

      // Job settlements: every complete accepted, each job charged exactly once.
      for (const done of completeResults)
        expect(done.json()).toEqual({ accepted: true, reason: null });
      const settledJobIds = [...lastMonth, ...thisMonth].map(({ leased }) => leased.job_id);
      const charges = await db
        .select({ jobId: ledgerTransactions.jobId, kind: ledgerTransactions.kind })
        .from(ledgerTransactions)
        .where(inArray(ledgerTransactions.jobId, settledJobIds));
      for (const jobId of settledJobIds) {
        const ofJob = charges.filter((charge) => charge.jobId === jobId);
        expect(ofJob.filter((charge) => charge.kind === 'job_hold')).toHaveLength(1);
        tally(ofJob.filter((charge) => charge.kind === 'job_charge').length, true);
        expect(ofJob.filter((charge) => charge.kind === 'hold_release')).toHaveLength(0);
      }
      const costs = await db
        .select({
          id: jobs.id,
          owner: jobs.ownerId,
          cost: jobs.actualCostMicros,
          node: jobs.assignedNodeId,
        })
        .from(jobs)
        .where(inArray(jobs.id, settledJobIds));
      expect(costs).toHaveLength(settledJobIds.length);
      for (const row of costs) expect(row.cost).toBeGreaterThan(0);
      const costOf = (jobId: string) => costs.find((row) => row.id === jobId)?.cost ?? 0;
      const shareOf = (
        provider: { user_id: string },
        month: { node: EnrolledNode; leased: Lease }[],
      ) =>
        sumOf(
          month
            .filter(({ node }) => ownerOfNode.get(node.node.id) === provider.user_id)
            .map(({ leased }) => providerShareMicros(costOf(leased.job_id))),
        );

      // Settlement: once per provider, however many runs raced.
      for (const provider of providers) {
        const rows = await db
          .select({ id: ledgerTransactions.id })
          .from(ledgerTransactions)
          .where(like(ledgerTransactions.idempotencyKey, `settlement:${provider.user_id}:%`));
        tally(rows.length, true);
      }

      // Payouts: the copies of a key agree; what was acknowledged left once, never beyond the balance.
      for (const [index, ask] of payoutAsks.entries()) {
        const answers = payoutResults[index] ?? [];
        for (const answer of answers) expect([200, 409], answer.body).toContain(answer.statusCode);
        const paidIds = new Set(
          answers
            .filter((answer) => answer.statusCode === 200)
            .map((answer) => answer.json<{ payout: { id: string } }>().payout.id),
        );
        expect(paidIds.size).toBeLessThanOrEqual(1);
        if (ask.key) {
          const rows = await db
            .select({ id: payouts.id })
            .from(payouts)
            .where(
              and(eq(payouts.userId, ask.provider.user_id), eq(payouts.idempotencyKey, ask.key)),
            );
          tally(rows.length, paidIds.size > 0);
          // A key refused every time moved nothing.
          expect(rows.map((row) => row.id)).toEqual([...paidIds]);
        } else if (paidIds.size > 0) {
          tally(1, true); // checked in the sums below
        }
      }
      for (const provider of providers) {
        const acknowledged = sumOf(
          payoutAsks
            .filter(
              (ask, index) =>
                ask.provider === provider &&
                (payoutResults[index] ?? []).some((a) => a.statusCode === 200),
            )
            .map((ask) => toMicros(ask.amount)),
        );
        const rows = await db
          .select({
            amount: payouts.amountMicros,
            status: payouts.status,
            automatic: payouts.isAutomatic,
          })
          .from(payouts)
          .where(eq(payouts.userId, provider.user_id));
        for (const row of rows) expect(row).toMatchObject({ status: 'paid', automatic: false });
        expect(sumOf(rows.map((row) => row.amount))).toBe(acknowledged);
        const balances = await repositories.ledger.balancesOfUser(provider.user_id);
        expect(balances.provider_available).toBe(shareOf(provider, lastMonth) - acknowledged);
        expect(balances.provider_pending).toBe(shareOf(provider, thisMonth));
        expect(balances.payouts_in_flight).toBe(0);
      }

      // Each enterprise: its credits and holds are what it bought, less what its jobs cost.
      for (const enterprise of enterprises) {
        const bought =
          INITIAL_CREDITS_USD * 1e6 +
          sumOf(topUps.filter((t) => t.enterprise === enterprise).map((t) => toMicros(t.amount)));
        const spent = sumOf(
          costs.filter((row) => row.owner === enterprise.user_id).map((row) => row.cost ?? 0),
        );
        const balances = await repositories.ledger.balancesOfUser(enterprise.user_id);
        expect(balances.enterprise_holds).toBe(SUBMIT_KEYS * 2_400_000);
        expect(balances.enterprise_credits + balances.enterprise_holds).toBe(bought - spent);
      }

      recordFault(reportDir, {
        section: 'ledger',
        database: databaseLabel(database.kind),
        requests,
        applied,
        lost,
        doubled,
      });
      expect({ lost, doubled }).toEqual({ lost: 0, doubled: 0 });
      await expectLedgerSound(database);
    },
  );
});
