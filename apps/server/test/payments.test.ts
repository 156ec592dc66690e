import {
  agentPaths,
  apiPaths,
  ERROR_CODES,
  notificationListResponseSchema,
} from '@fabric/contract';
import { describe, expect, it } from 'vitest';
import { bearer, registerUser, TEST_PASSWORD } from './support/auth.ts';
import {
  agentCall,
  enrollNode,
  leaseJob,
  PRIME_SIEVE_1E11_RESULT,
  registerEnterprise,
  registerProvider,
  submitJob,
} from './support/compute-network.ts';
import { describeEachDatabase } from './support/databases.ts';
import {
  addCreditsRequest,
  balanceOf,
  completeWithCpu,
  connectSandboxBank,
  payoutRequest,
  transactionsOf,
  moneyHarness,
} from './support/money.ts';

describeEachDatabase('payments: ledger, billing, settlement and payouts', (database) => {
  const harness = moneyHarness(database);
  const { clock } = harness;

  /** Moves the clock to the second day of the next month (UTC), so this month can be settled. */
  function advanceIntoNextMonth() {
    const now = clock.now();
    const target = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 2);
    clock.advanceBy(target - now.getTime());
  }

  /** π(10^11) run for `wallMs` on the server's clock by a node reporting `cpuMs` of CPU time. */
  async function runOneJob(wallMs: number, cpuMs = wallMs) {
    const provider = await registerProvider(harness.app);
    const enterprise = await registerEnterprise(harness.app, { credits: 100 });
    const { node, deviceToken } = await enrollNode(harness.app, provider);
    const job = await submitJob(harness.app, enterprise, {
      job_type: 'prime_sieve',
      params: { limit: PRIME_SIEVE_1E11_RESULT.limit },
    });
    const leased = await leaseJob(harness.app, deviceToken);
    clock.advanceBy(wallMs);
    const done = await completeWithCpu(
      harness.app,
      deviceToken,
      leased,
      PRIME_SIEVE_1E11_RESULT,
      cpuMs,
    );
    expect(done.json()).toEqual({ accepted: true, reason: null });
    return { provider, enterprise, node, deviceToken, job };
  }

  /** A provider whose one node ran π(10^11) `jobs` times: $0.136 earned a job, pending. */
  async function providerWhoRan(jobs: number) {
    const provider = await registerProvider(harness.app);
    const enterprise = await registerEnterprise(harness.app, { credits: 100 });
    const { deviceToken } = await enrollNode(harness.app, provider);
    for (let index = 0; index < jobs; index += 1) {
      await submitJob(harness.app, enterprise, {
        job_type: 'prime_sieve',
        params: { limit: PRIME_SIEVE_1E11_RESULT.limit },
      });
      const leased = await leaseJob(harness.app, deviceToken);
      clock.advanceBy(30_000);
      const done = await completeWithCpu(
        harness.app,
        deviceToken,
        leased,
        PRIME_SIEVE_1E11_RESULT,
        100_000,
      );
      expect(done.json()).toEqual({ accepted: true, reason: null });
    }
    return provider;
  }

  describe('credits', () => {
    it('starts every account at zero', async () => {
      const enterprise = await registerEnterprise(harness.app, { credits: 0 });
      const balance = await balanceOf(harness.app, enterprise);
      expect(balance).toMatchObject({
        balance: 0,
        credits_balance: 0,
        held_credits: 0,
        pending_earnings: 0,
        lifetime_earnings: 0,
        lifetime_spending: 0,
        this_month: 0,
      });
      expect(balance.by_day).toHaveLength(30);
      expect((await transactionsOf(harness.app, enterprise)).transactions).toEqual([]);
    });

    it('adds credits through the sandbox at once and lists the purchase', async () => {
      const enterprise = await registerEnterprise(harness.app, { credits: 0 });
      const response = await addCreditsRequest(harness.app, enterprise, 25.5);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        message: 'Credits added successfully',
        status: 'completed',
        checkout_url: null,
        balance: { balance: 25.5, credits_balance: 25.5 },
      });
      const { transactions, total } = await transactionsOf(harness.app, enterprise);
      expect(total).toBe(1);
      expect(transactions[0]).toMatchObject({
        amount: 25.5,
        kind: 'credit_purchase',
        description: 'Credits purchased (sandbox card)',
      });
    });

    it.each([
      [0, 'Amount must be above 0'],
      [-5, 'Amount must be above 0'],
      [1.234, 'Amount must have at most 2 decimals'],
      [1_000_000.01, 'Amount must be at most 1000000.00'],
      ['ten', 'Amount must be a number'],
    ])('refuses %s with 400 naming amount', async (amount, message) => {
      const enterprise = await registerEnterprise(harness.app, { credits: 0 });
      const response = await addCreditsRequest(harness.app, enterprise, amount);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ field: 'amount', message });
      expect((await balanceOf(harness.app, enterprise)).balance).toBe(0);
    });

    it('honours an Idempotency-Key: the same purchase once; another amount is refused', async () => {
      const enterprise = await registerEnterprise(harness.app, { credits: 0 });
      expect((await addCreditsRequest(harness.app, enterprise, 10, 'buy-1')).statusCode).toBe(200);
      expect((await addCreditsRequest(harness.app, enterprise, 10, 'buy-1')).statusCode).toBe(200);
      const different = await addCreditsRequest(harness.app, enterprise, 20, 'buy-1');
      expect(different.statusCode).toBe(409);
      expect(different.json()).toMatchObject({ code: ERROR_CODES.idempotencyConflict });
      expect((await balanceOf(harness.app, enterprise)).balance).toBe(10);
      const bad = await addCreditsRequest(harness.app, enterprise, 10, 'not a key!');
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ field: 'Idempotency-Key' });
    });

    it('lets only enterprises buy credits and only providers request payouts', async () => {
      const provider = await registerProvider(harness.app);
      const enterprise = await registerEnterprise(harness.app, { credits: 0 });
      expect((await addCreditsRequest(harness.app, provider, 10)).statusCode).toBe(403);
      expect((await payoutRequest(harness.app, enterprise, 10)).statusCode).toBe(403);
      const anonymous = await harness.app.inject({ url: apiPaths.payment.balance });
      expect(anonymous.statusCode).toBe(401);
    });
  });

  describe('metered billing of jobs', () => {
    it('refuses a job the credits cannot hold, with 402 and the shortfall', async () => {
      const enterprise = await registerEnterprise(harness.app, { credits: 2 });
      const response = await harness.app.inject({
        method: 'POST',
        url: apiPaths.jobs.submit,
        headers: bearer(enterprise),
        payload: { job_type: 'fibonacci', params: { n: 10 } },
      });
      expect(response.statusCode).toBe(402);
      expect(response.json()).toEqual({
        code: ERROR_CODES.insufficientFunds,
        message:
          'Not enough credits: each job holds $2.40 until it ends, and your available credits are $2.00. Add credits on the Billing page.',
      });
      const jobs = await harness.app.inject({
        url: apiPaths.jobs.list,
        headers: bearer(enterprise),
      });
      expect(jobs.json<{ total: number }>().total).toBe(0);
    });

    it('holds $2.40 at submit and gives it all back when a queued job is cancelled', async () => {
      const enterprise = await registerEnterprise(harness.app, { credits: 10 });
      const job = await submitJob(harness.app, enterprise);
      expect(await balanceOf(harness.app, enterprise)).toMatchObject({
        balance: 7.6,
        held_credits: 2.4,
      });
      const cancel = await harness.app.inject({
        method: 'POST',
        url: apiPaths.jobs.cancel(job.id),
        headers: bearer(enterprise),
      });
      expect(cancel.json()).toMatchObject({ status: 'cancelled', actual_cost: 0 });
      expect(await balanceOf(harness.app, enterprise)).toMatchObject({
        balance: 10,
        held_credits: 0,
        lifetime_spending: 0,
      });
      // Holds and their release move money aside; the history shows only the purchase.
      expect((await transactionsOf(harness.app, enterprise)).total).toBe(1);
    });

    it('charges a completed job its work and pays the provider 80%, exactly', async () => {
      // π(10^11) is 80 s of reference CPU: $0.01 + 80,000 ms × $0.000002 = $0.17; provider
      // $0.136, platform $0.034. The node took 30 s on its 4 cores and reported 100 s of CPU.
      const { provider, enterprise, node, job } = await runOneJob(30_000, 100_000);
      const charged = await harness.app.inject({
        url: apiPaths.jobs.detail(job.id),
        headers: bearer(enterprise),
      });
      expect(charged.json()).toMatchObject({
        actual_cost: 0.17,
        estimated_cost: 2.4,
        billed_cpu_ms: 80_000,
      });
      expect(await balanceOf(harness.app, enterprise)).toMatchObject({
        balance: 99.83,
        held_credits: 0,
        lifetime_spending: 0.17,
        this_month: 0.17,
      });
      expect(await balanceOf(harness.app, provider)).toMatchObject({
        balance: 0,
        pending_earnings: 0.14,
        lifetime_earnings: 0.14,
        this_month: 0.14,
      });
      const enterpriseHistory = await transactionsOf(harness.app, enterprise, '?direction=out');
      expect(enterpriseHistory.transactions).toMatchObject([
        { amount: -0.17, kind: 'job_charge', job_id: job.id },
      ]);
      expect(enterpriseHistory.transactions[0]?.description).toMatch(/^Charge: Prime Sieve job /);
      const providerHistory = await transactionsOf(harness.app, provider);
      expect(providerHistory.transactions).toMatchObject([{ amount: 0.14, kind: 'job_charge' }]);
      const nodeResponse = await harness.app.inject({
        url: apiPaths.nodes.detail(node.id),
        headers: bearer(provider),
      });
      expect(nodeResponse.json()).toMatchObject({ lifetime_earnings: '0.14' });
    });

    it('never charges more than the work, however long the device took or says it used', async () => {
      // 2 hours of CPU would be $14.41: π(10^11) is billed its 80 s of work, $0.17.
      const { enterprise, job } = await runOneJob(2 * 60 * 60 * 1000);
      const response = await harness.app.inject({
        url: apiPaths.jobs.detail(job.id),
        headers: bearer(enterprise),
      });
      expect(response.json()).toMatchObject({ actual_cost: 0.17 });
      expect((await balanceOf(harness.app, enterprise)).balance).toBe(99.83);
    });

    it('bills a running job cancelled after 30 s for 30 s on one core, without the job fee', async () => {
      const provider = await registerProvider(harness.app);
      const enterprise = await registerEnterprise(harness.app, { credits: 50 });
      const { deviceToken } = await enrollNode(harness.app, provider);
      const job = await submitJob(harness.app, enterprise, {
        job_type: 'prime_sieve',
        params: { limit: PRIME_SIEVE_1E11_RESULT.limit },
      });
      await leaseJob(harness.app, deviceToken);
      clock.advanceBy(30_000);
      const cancel = await harness.app.inject({
        method: 'POST',
        url: apiPaths.jobs.cancel(job.id),
        headers: bearer(enterprise),
      });
      // 30,000 ms × $0.000002 = $0.06; the provider gets $0.048.
      expect(cancel.json()).toMatchObject({ status: 'cancelled', actual_cost: 0.06 });
      expect((await balanceOf(harness.app, enterprise)).balance).toBe(49.94);
      expect((await balanceOf(harness.app, provider)).pending_earnings).toBe(0.05);
    });

    it('does not charge a job failed by devices, and charges a failure only once another provider’s node repeats it', async () => {
      const provider = await registerProvider(harness.app);
      const enterprise = await registerEnterprise(harness.app, { credits: 50 });
      const { deviceToken } = await enrollNode(harness.app, provider);

      const retried = await submitJob(harness.app, enterprise);
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const leased = await leaseJob(harness.app, deviceToken);
        await agentCall(harness.app, deviceToken, agentPaths.fail(retried.id), {
          lease_id: leased.lease_id,
          error: 'device ran out of memory',
          retryable: true,
          usage: { wall_ms: 9000, cpu_ms: 9000, peak_memory_bytes: 1 },
        });
      }
      const free = await harness.app.inject({
        url: apiPaths.jobs.detail(retried.id),
        headers: bearer(enterprise),
      });
      expect(free.json()).toMatchObject({ status: 'failed', actual_cost: 0 });

      // A second provider's node is online, so the first claim is checked there.
      const other = await enrollNode(harness.app, await registerProvider(harness.app));
      const own = await submitJob(harness.app, enterprise, {
        job_type: 'prime_sieve',
        params: { limit: PRIME_SIEVE_1E11_RESULT.limit },
      });
      for (const node of [deviceToken, other.deviceToken]) {
        const leased = await leaseJob(harness.app, node);
        clock.advanceBy(2000);
        await agentCall(harness.app, node, agentPaths.fail(own.id), {
          lease_id: leased.lease_id,
          error: 'the job exceeded its memory limit',
          retryable: false,
          usage: { wall_ms: 1500, cpu_ms: 1500, peak_memory_bytes: 1 },
        });
      }
      const paid = await harness.app.inject({
        url: apiPaths.jobs.detail(own.id),
        headers: bearer(enterprise),
      });
      // The confirming run's 2000 ms on one core × $0.000002 = $0.004, no job fee; the CPU time
      // the devices report (1500 ms) is not what is billed.
      expect(paid.json()).toMatchObject({ status: 'failed', actual_cost: 0.004 });
      expect((await balanceOf(harness.app, enterprise)).balance).toBe(50);
      expect((await balanceOf(harness.app, enterprise)).lifetime_spending).toBe(0);
    });
  });

  describe('settlement and payouts', () => {
    it('refuses a payout without a bank account that can receive it', async () => {
      const provider = await registerProvider(harness.app);
      const response = await payoutRequest(harness.app, provider, 1);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ code: ERROR_CODES.payoutsNotEnabled });
      const status = await harness.app.inject({
        url: apiPaths.payment.connectStatus,
        headers: bearer(provider),
      });
      expect(status.json()).toEqual({
        connected: false,
        payouts_enabled: false,
        requirements: { currently_due: [] },
      });
    });

    it('connects a bank through the sandbox onboarding page: incomplete, then ready', async () => {
      const provider = await registerProvider(harness.app);
      const onboard = await harness.app.inject({
        url: apiPaths.payment.connectOnboard,
        headers: bearer(provider),
      });
      const link = new URL(onboard.json<{ url: string }>().url);
      expect(link.pathname).toBe(apiPaths.payment.sandboxOnboarding);
      const incomplete = await harness.app.inject({
        url: apiPaths.payment.connectStatus,
        headers: bearer(provider),
      });
      expect(incomplete.json()).toEqual({
        connected: true,
        payouts_enabled: false,
        requirements: { currently_due: ['external_account', 'tos_acceptance.date'] },
      });
      const tampered = await harness.app.inject({
        url: `${link.pathname}${link.search.replace(/signature=[0-9a-f]+/, `signature=${'0'.repeat(64)}`)}`,
      });
      expect(tampered.statusCode).toBe(400);
      await connectSandboxBank(harness.app, provider);
      const ready = await harness.app.inject({
        url: apiPaths.payment.connectStatus,
        headers: bearer(provider),
      });
      expect(ready.json()).toEqual({
        connected: true,
        payouts_enabled: true,
        requirements: { currently_due: [] },
      });
    });

    it('settles last month’s earnings once, then pays out no more than is available', async () => {
      const provider = await providerWhoRan(5); // 5 × $0.17 charged; provider 5 × $0.136 = $0.68
      await connectSandboxBank(harness.app, provider);
      expect((await payoutRequest(harness.app, provider, 0.5)).statusCode).toBe(409);

      advanceIntoNextMonth();
      await harness.app.payments.settle();
      await harness.app.payments.settle();
      expect(await balanceOf(harness.app, provider)).toMatchObject({
        balance: 0.68,
        pending_earnings: 0,
        lifetime_earnings: 0.68,
      });

      const tooMuch = await payoutRequest(harness.app, provider, 0.69);
      expect(tooMuch.statusCode).toBe(409);
      expect(tooMuch.json()).toMatchObject({
        code: ERROR_CODES.insufficientFunds,
        field: 'amount',
        message: 'Insufficient balance: $0.68 is available for payout.',
      });
      const paid = await payoutRequest(harness.app, provider, 0.5, 'payout-1');
      expect(paid.statusCode).toBe(200);
      expect(paid.json()).toMatchObject({
        message: 'Payout requested successfully',
        payout: { amount: 0.5, status: 'paid' },
        balance: { balance: 0.18 },
      });
      const again = await payoutRequest(harness.app, provider, 0.5, 'payout-1');
      expect(again.json()).toMatchObject({
        payout: { id: paid.json<{ payout: { id: string } }>().payout.id },
      });
      expect((await balanceOf(harness.app, provider)).balance).toBe(0.18);
      const history = await transactionsOf(harness.app, provider, '?direction=out');
      expect(history.transactions).toMatchObject([{ amount: -0.5, kind: 'payout' }]);

      const notifications = await harness.app.inject({
        url: apiPaths.notifications.list,
        headers: bearer(provider),
      });
      const kinds = notificationListResponseSchema
        .parse(notifications.json())
        .notifications.map((n) => n.kind);
      expect(kinds).toEqual(
        expect.arrayContaining(['earnings_settled', 'payout_sent', 'job_completed']),
      );
    });

    it('never overdraws under many simultaneous payouts', async () => {
      const provider = await providerWhoRan(5); // $0.68
      await connectSandboxBank(harness.app, provider);
      advanceIntoNextMonth();
      await harness.app.payments.settle();
      expect((await balanceOf(harness.app, provider)).balance).toBe(0.68);
      const responses = await Promise.all(
        Array.from({ length: 16 }, (_, index) =>
          payoutRequest(harness.app, provider, 0.17, `many-${index}`),
        ),
      );
      const succeeded = responses.filter((response) => response.statusCode === 200);
      const refused = responses.filter((response) => response.statusCode === 409);
      expect(succeeded).toHaveLength(4);
      expect(refused).toHaveLength(12);
      expect((await balanceOf(harness.app, provider)).balance).toBe(0);
    });
  });

  describe('statements, notifications, settings and closing an account', () => {
    it('prints a monthly statement from the ledger', async () => {
      const enterprise = await registerEnterprise(harness.app, { credits: 42 });
      const month = clock.now().toISOString().slice(0, 7);
      const response = await harness.app.inject({
        url: `${apiPaths.payment.statement}?month=${month}`,
        headers: bearer(enterprise),
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toContain('Credits purchased (sandbox card)');
      expect(response.body).toContain('$42.00');
      const future = await harness.app.inject({
        url: `${apiPaths.payment.statement}?month=2999-01`,
        headers: bearer(enterprise),
      });
      expect(future.statusCode).toBe(400);
      expect(future.json()).toMatchObject({ field: 'month' });
    });

    it('notifies a job’s end and low credits, and obeys the Credit Low Alerts switch', async () => {
      const enterprise = await registerEnterprise(harness.app, { credits: 11 });
      await submitJob(harness.app, enterprise); // 11.00 → 8.60: below $10
      const list = async () =>
        notificationListResponseSchema.parse(
          (
            await harness.app.inject({
              url: apiPaths.notifications.list,
              headers: bearer(enterprise),
            })
          ).json(),
        );
      expect((await list()).notifications.map((n) => n.kind)).toEqual(['credits_low']);
      expect((await list()).unread).toBe(1);

      const switched = await harness.app.inject({
        method: 'PUT',
        url: apiPaths.settings,
        headers: bearer(enterprise),
        payload: { credit_low_alerts: false },
      });
      expect(switched.json()).toMatchObject({ credit_low_alerts: false, minimum_payout: 50 });
      await addCreditsRequest(harness.app, enterprise, 10);
      await submitJob(harness.app, enterprise); // 18.60 → 16.20: no crossing anyway
      expect((await list()).notifications).toHaveLength(1);

      const [first] = (await list()).notifications;
      const read = await harness.app.inject({
        method: 'POST',
        url: apiPaths.notifications.read(first?.id ?? ''),
        headers: bearer(enterprise),
      });
      expect(read.json()).toMatchObject({ read_at: expect.any(String) as string });
      expect((await list()).unread).toBe(0);
    });

    it('notifies low credits exactly once when several submits cross the line at once', async () => {
      const enterprise = await registerEnterprise(harness.app, { credits: 11 });
      await Promise.all([
        submitJob(harness.app, enterprise),
        submitJob(harness.app, enterprise),
        submitJob(harness.app, enterprise),
      ]);
      const response = await harness.app.inject({
        url: apiPaths.notifications.list,
        headers: bearer(enterprise),
      });
      const kinds = notificationListResponseSchema
        .parse(response.json())
        .notifications.map((n) => n.kind);
      expect(kinds).toEqual(['credits_low']);
      expect((await balanceOf(harness.app, enterprise)).balance).toBe(3.8);
    });

    it('saves settings with field errors for bad values', async () => {
      const provider = await registerProvider(harness.app);
      const bad = await harness.app.inject({
        method: 'PUT',
        url: apiPaths.settings,
        headers: bearer(provider),
        payload: { minimum_payout: 0.5 },
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({
        field: 'minimum_payout',
        message: 'minimum_payout must be at least 1.00',
      });
      const saved = await harness.app.inject({
        method: 'PUT',
        url: apiPaths.settings,
        headers: bearer(provider),
        payload: { minimum_payout: 75.25, marketing_emails: true },
      });
      expect(saved.json()).toEqual({
        email_notifications: true,
        job_notifications: true,
        credit_low_alerts: true,
        marketing_emails: true,
        minimum_payout: 75.25,
      });
    });

    it('closes an account: password checked, jobs cancelled, money kept as unclaimed funds', async () => {
      const user = await registerUser(harness.app, { role: 'enterprise' });
      const token = user.auth.access_token;
      await addCreditsRequest(harness.app, token, 30);
      await submitJob(harness.app, token);
      const wrong = await harness.app.inject({
        method: 'DELETE',
        url: apiPaths.auth.account,
        headers: bearer(token),
        payload: { current_password: 'not the password', confirm: 'DELETE' },
      });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toMatchObject({ field: 'current_password' });
      const unconfirmed = await harness.app.inject({
        method: 'DELETE',
        url: apiPaths.auth.account,
        headers: bearer(token),
        payload: { current_password: TEST_PASSWORD, confirm: 'yes' },
      });
      expect(unconfirmed.json()).toMatchObject({
        field: 'confirm',
        message: 'Type DELETE to confirm',
      });

      const closed = await harness.app.inject({
        method: 'DELETE',
        url: apiPaths.auth.account,
        headers: bearer(token),
        payload: { current_password: TEST_PASSWORD, confirm: 'DELETE' },
      });
      expect(closed.statusCode).toBe(200);
      expect(closed.json()).toEqual({
        message:
          'Your account was closed. $30.00 left in it is kept as unclaimed funds; contact support to have it returned.',
      });
      expect(
        (await harness.app.inject({ url: apiPaths.auth.me, headers: bearer(token) })).statusCode,
      ).toBe(401);
      const login = await harness.app.inject({
        method: 'POST',
        url: apiPaths.auth.login,
        payload: { email: user.email, password: TEST_PASSWORD },
      });
      expect(login.statusCode).toBe(401);
      // The address can sign up again, as a new account.
      expect((await registerUser(harness.app, { email: user.email })).auth.user_id).not.toBe(
        user.auth.user_id,
      );
    });
  });
});
