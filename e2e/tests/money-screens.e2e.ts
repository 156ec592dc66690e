import { apiPaths, type Job } from '@fabric/contract';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, submitJob, waitForJob, type Account } from '../support/api.ts';
import { launchBrowser, uniqueEmail } from '../support/browser.ts';
import {
  PASSWORD,
  expectPath,
  signInThroughForm,
  signUpThroughForm,
  toasts,
} from '../support/flows.ts';
import {
  accountInPage,
  providerShareOf,
  rowAmount,
  statCard,
  transactionHistory,
  transactionRows,
  usdText,
  waitForStat,
} from '../support/money.ts';
import {
  LIVE_TIMEOUT,
  markDocument,
  signInAndWait,
  submitJobThroughForm,
  wasReloaded,
  useOwnServer,
} from '../support/screens.ts';

// Billing, Settings and Notifications on real money: the server's payment sandbox, real agents
// running the jobs that are charged, Chromium; nothing is mocked.

/** What a job runs: a tiny one, so it costs the $0.01 fee plus a few CPU-milliseconds. */
const QUICK_JOB = { job_type: 'fibonacci', params: { n: 100 } } as const;

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

describe('money screens on the embedded database', () => {
  const server = useOwnServer(() => browser);
  const { openPage, startAgent } = server;

  /** Waits for the job to complete (an agent of the test runs it) and returns it as the API has it. */
  async function completedJob(account: Account, jobId: string): Promise<Job> {
    const job = await waitForJob(server.url, account, jobId, undefined, LIVE_TIMEOUT * 2);
    expect(job.status).toBe('completed');
    expect(job.actual_cost).not.toBeNull();
    return job;
  }

  it('an enterprise buys credits on Billing, spends them on a job a real agent runs, and downloads the statement', async () => {
    const page = await openPage();
    const email = uniqueEmail('billing-enterprise');
    await signUpThroughForm(page, {
      role: 'enterprise',
      email,
      password: PASSWORD,
      organizationName: 'Billing Test Inc',
    });
    await page.goto('/billing');
    await markDocument(page);
    await page.getByRole('heading', { name: 'Billing & Credits', level: 1 }).waitFor();
    await waitForStat(page, 'Credit Balance', '$0.00');
    await statCard(page, 'Credit Balance').getByText('Available credits').waitFor();
    await waitForStat(page, 'This Month', '$0.00');
    await waitForStat(page, 'Lifetime Spending', '$0.00');
    const history = transactionHistory(page);
    await history.getByText('No transactions yet').waitFor();

    // Add Credits: nothing or 0 is refused in the dialog; 25 is bought at once (sandbox card).
    await page.getByRole('button', { name: 'Add Credits' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Credits' });
    const amount = dialog.getByLabel('Amount (USD)');
    const buy = dialog.getByRole('button', { name: 'Add Credits' });
    await buy.click();
    await dialog.getByText('Please enter a valid amount').waitFor();
    await amount.fill('0');
    await buy.click();
    await dialog.getByText('Please enter a valid amount').waitFor();
    expect(await amount.getAttribute('aria-invalid')).toBe('true');
    await amount.fill('25');
    await buy.click();
    await toasts(page).getByText('Credits added successfully').waitFor();
    await dialog.waitFor({ state: 'detached' });
    await waitForStat(page, 'Credit Balance', '$25.00');
    const purchase = transactionRows(page, 'Credits purchased');
    await purchase.waitFor();
    expect(await rowAmount(purchase)).toEqual({ text: '$25.00', color: 'in' });
    expect(await purchase.getByText('In:', { exact: false }).count()).toBe(1);
    expect(await history.getByText('No transactions yet').count()).toBe(0);
    expect(await wasReloaded(page)).toBe(false);

    await history.getByRole('tab', { name: 'Credits' }).click();
    await purchase.waitFor();
    expect(await transactionHistory(page).getByRole('row').count()).toBe(2); // header + purchase
    await history.getByRole('tab', { name: 'Expenses' }).click();
    await history.getByText('No expense transactions').waitFor();
    await history.getByRole('tab', { name: 'All' }).click();
    await purchase.waitFor();

    // Submit a job: the credit panel counts what $25.00 pays for (floor(25 / 2.40) = 10 jobs).
    await page.goto('/jobs/submit');
    const panel = page.getByRole('region', { name: 'Credit Balance' });
    await panel.getByTestId('credit-balance').filter({ hasText: '$25.00' }).waitFor();
    await panel.getByText('Enough for 10 jobs at $2.40 each').waitFor();
    const job = await submitJobThroughForm(page, QUICK_JOB.job_type, '{"n": 100}');

    // The dashboard: no agent runs yet, so $2.40 of the 25 is held while the job waits.
    const main = page.getByRole('navigation', { name: 'Main' });
    await main.getByRole('link', { name: 'Dashboard' }).click();
    await expectPath(page, '/');
    await waitForStat(page, 'Credit Balance', '$22.60');
    await statCard(page, 'Credit Balance').getByText('$2.40 on hold for running jobs').waitFor();

    // Billing follows the job's end without a reload: the charge is its actual cost, in cents.
    await main.getByRole('link', { name: 'Billing' }).click();
    await expectPath(page, '/billing');
    await markDocument(page);
    await waitForStat(page, 'Credit Balance', '$22.60');
    const provider = await createAccount(server.url, 'node_provider');
    startAgent(provider.email, provider.password, 'billing-worker');
    const account = await accountInPage(page, email, PASSWORD);
    const done = await completedJob(account, job.id);
    const cost = done.actual_cost ?? Number.NaN;
    expect(cost).toBeGreaterThanOrEqual(0.01);
    expect(cost).toBeLessThanOrEqual(2.4);
    await waitForStat(page, 'Lifetime Spending', usdText(cost), LIVE_TIMEOUT);
    await waitForStat(page, 'This Month', usdText(cost));
    await waitForStat(page, 'Credit Balance', usdText(25 - cost));
    const charge = transactionRows(page, `Charge: Fibonacci job ${job.id.slice(0, 8)}`);
    await charge.waitFor();
    expect(await rowAmount(charge)).toEqual({ text: usdText(cost), color: 'out' });
    await history.getByRole('tab', { name: 'Expenses' }).click();
    await history.getByRole('tab', { name: 'Expenses', selected: true }).waitFor();
    await expect.poll(() => purchase.count(), { timeout: LIVE_TIMEOUT }).toBe(0);
    expect(await charge.count()).toBe(1);
    // The hold moved within the enterprise's own money: it is no line of its own.
    expect(await transactionRows(page, 'Hold for').count()).toBe(0);
    expect(await wasReloaded(page)).toBe(false);

    // Download Invoice opens this month's statement in a new tab.
    const [statement] = await Promise.all([
      page.context().waitForEvent('page'),
      page.getByRole('button', { name: 'Download Invoice' }).click(),
    ]);
    await statement.waitForURL((url) => url.protocol === 'blob:', { timeout: LIVE_TIMEOUT });
    await statement.waitForLoadState();
    expect(await statement.title()).toMatch(/^Fabric statement — /);
    await statement.getByRole('heading', { name: /^Fabric statement — / }).waitFor();
    const lines = statement.getByRole('row');
    const purchaseLine = lines.filter({ hasText: 'Credits purchased (sandbox card)' });
    expect(await purchaseLine.count()).toBe(1);
    expect(await purchaseLine.innerText()).toContain('$25.00');
    const chargeLine = lines.filter({ hasText: `Fibonacci job ${job.id.slice(0, 8)}` });
    expect(await chargeLine.innerText()).toContain(`-${usdText(cost)}`);
    await statement.close();
  }, 150_000);

  it('a provider connects a bank account through the sandbox onboarding, sees earnings from its own agent grow live, and cannot pay out pending earnings', async () => {
    const page = await openPage();
    const email = uniqueEmail('earnings-provider');
    await signUpThroughForm(page, {
      role: 'node_provider',
      email,
      password: PASSWORD,
      name: 'Earnings Provider',
    });
    // Its agent starts now and waits for work while the bank account is connected.
    startAgent(email, PASSWORD, 'earnings-worker');

    await page.goto('/settings');
    const bank = page.locator('[data-slot="card"]').filter({ hasText: 'Bank Account Connection' });
    await bank.getByText('No bank account connected').waitFor();
    await bank.getByRole('button', { name: 'Connect Bank Account' }).click();
    await page.waitForURL((url) => url.pathname === apiPaths.payment.sandboxOnboarding);
    await page.getByRole('heading', { name: 'Connect a bank account' }).waitFor();
    await page.getByRole('button', { name: 'Agree and connect' }).click();
    await toasts(page).getByText('Stripe account connected successfully!').waitFor();
    await page.waitForURL((url) => url.pathname === '/settings' && url.search === '');
    await bank.getByText('Bank Account Connected').waitFor();
    await bank.getByText('Payouts are enabled.', { exact: false }).waitFor();
    expect(await bank.getByRole('button', { name: 'Connect Bank Account' }).count()).toBe(0);

    // Earnings before any job: nothing yet.
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Earnings' })
      .click();
    await expectPath(page, '/billing');
    await markDocument(page);
    await page.getByRole('heading', { name: 'Earnings', level: 1 }).waitFor();
    await waitForStat(page, 'Current Balance', '$0.00');
    await statCard(page, 'Current Balance').getByText('Ready for payout').waitFor();
    await waitForStat(page, 'Pending Earnings', '$0.00');
    await statCard(page, 'Pending Earnings').getByText('Processing').waitFor();
    await waitForStat(page, 'Lifetime Earnings', '$0.00');
    await statCard(page, 'Lifetime Earnings').getByText('Total earned').waitFor();

    // An enterprise's job, run by this provider's agent: 80% of its cost is pending earnings.
    const enterprise = await createAccount(server.url, 'enterprise');
    const job = await submitJob(server.url, enterprise, QUICK_JOB);
    const done = await completedJob(enterprise, job.id);
    const share = providerShareOf(done.actual_cost ?? Number.NaN);
    expect(share).toBeGreaterThan(0);
    await waitForStat(page, 'Pending Earnings', usdText(share), LIVE_TIMEOUT);
    await waitForStat(page, 'Lifetime Earnings', usdText(share));
    await waitForStat(page, 'Current Balance', '$0.00');
    const earning = transactionRows(page, `Earnings: Fibonacci job ${job.id.slice(0, 8)}`);
    await earning.waitFor();
    expect(await rowAmount(earning)).toEqual({ text: usdText(share), color: 'in' });
    expect(await wasReloaded(page)).toBe(false);

    // Pending earnings are not available: a payout above $0.00 is refused in the dialog.
    await page.getByRole('button', { name: 'Request Payout' }).click();
    const dialog = page.getByRole('dialog', { name: 'Request Payout' });
    await dialog.getByText('Available balance:', { exact: false }).waitFor();
    expect(await dialog.getByText('$0.00', { exact: true }).count()).toBe(1);
    await dialog.getByLabel('Amount (USD)').fill('1');
    await dialog.getByRole('button', { name: 'Request Payout' }).click();
    await dialog.getByText('Insufficient balance').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });

    await page.getByRole('link', { name: 'Payment Methods' }).click();
    await expectPath(page, '/settings');
    await bank.getByText('Bank Account Connected').waitFor();
  }, 150_000);

  it('a provider who leaves the onboarding without agreeing sees Setup Incomplete, and Complete Setup finishes it', async () => {
    const provider = await createAccount(server.url, 'node_provider');
    const page = await openPage();
    await signInAndWait(page, provider.email, provider.password);
    await page.goto('/settings');
    const bank = page.locator('[data-slot="card"]').filter({ hasText: 'Bank Account Connection' });
    await bank.getByRole('button', { name: 'Connect Bank Account' }).click();
    await page.waitForURL((url) => url.pathname === apiPaths.payment.sandboxOnboarding);
    await page.getByRole('heading', { name: 'Connect a bank account' }).waitFor();

    await page.goBack();
    await expectPath(page, '/settings');
    await bank.getByText('Setup Incomplete').waitFor();
    await bank.getByText('Still needed:').waitFor();
    expect(await bank.getByText('Bank Account Connected').count()).toBe(0);

    await bank.getByRole('button', { name: 'Complete Setup' }).click();
    await page.waitForURL((url) => url.pathname === apiPaths.payment.sandboxOnboarding);
    await page.getByRole('button', { name: 'Agree and connect' }).click();
    await toasts(page).getByText('Stripe account connected successfully!').waitFor();
    await page.waitForURL((url) => url.pathname === '/settings' && url.search === '');
    await bank.getByText('Bank Account Connected').waitFor();
    expect(await bank.getByText('Setup Incomplete').count()).toBe(0);
  });

  it('notification switches and the minimum payout are saved and survive a reload', async () => {
    const enterprise = await createAccount(server.url, 'enterprise', { credits: 0 });
    const page = await openPage();
    await signInAndWait(page, enterprise.email, enterprise.password);
    await page.goto('/settings');
    const marketing = page.getByRole('switch', { name: 'Marketing Emails' });
    const creditLow = page.getByRole('switch', { name: 'Credit Low Alerts' });
    await marketing.waitFor();
    expect(await marketing.getAttribute('aria-checked')).toBe('false');
    expect(await creditLow.getAttribute('aria-checked')).toBe('true');

    /** Flips a switch and waits for the server to have saved it. */
    async function flip(name: 'Marketing Emails' | 'Credit Low Alerts') {
      const [response] = await Promise.all([
        page.waitForResponse(
          (candidate) =>
            new URL(candidate.url()).pathname === apiPaths.settings &&
            candidate.request().method() === 'PUT',
        ),
        page.getByRole('switch', { name }).click(),
      ]);
      expect(response.status()).toBe(200);
    }
    await flip('Marketing Emails');
    await flip('Credit Low Alerts');
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    expect(await marketing.getAttribute('aria-checked')).toBe('true');
    expect(await creditLow.getAttribute('aria-checked')).toBe('false');

    await page.reload();
    await marketing.waitFor();
    expect(await marketing.getAttribute('aria-checked')).toBe('true');
    expect(await creditLow.getAttribute('aria-checked')).toBe('false');
    expect(await page.getByRole('switch', { name: 'Email Notifications' }).count()).toBe(1);

    const provider = await createAccount(server.url, 'node_provider');
    const providerPage = await openPage();
    await signInAndWait(providerPage, provider.email, provider.password);
    await providerPage.goto('/settings');
    const form = providerPage.getByRole('form', { name: 'Payout settings' });
    const minimum = form.getByLabel('Minimum Payout Amount');
    await minimum.waitFor();
    expect(await minimum.inputValue()).toBe('50.00');
    await minimum.fill('75.25');
    await form.getByRole('button', { name: 'Update Settings' }).click();
    await toasts(providerPage).getByText('Payout settings updated successfully').waitFor();

    await providerPage.reload();
    await minimum.waitFor();
    expect(await minimum.inputValue()).toBe('75.25');
  });

  it('notifications arrive live with the nav badge; opening one marks it read, and Mark all as read clears the rest', async () => {
    const enterprise = await createAccount(server.url, 'enterprise', { credits: 11 });
    const page = await openPage();
    await signInAndWait(page, enterprise.email, enterprise.password);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Notifications' }).click();
    await expectPath(page, '/notifications');
    await markDocument(page);
    await page.getByText('No notifications yet').waitFor();

    // $11.00 → $8.60 crosses the $10 low-credit line.
    const first = await submitJob(server.url, enterprise, QUICK_JOB);
    const low = page.getByRole('link', { name: /Credits are running low/ });
    await low.waitFor({ timeout: LIVE_TIMEOUT });
    await low.getByText('You have $8.60 of credits left', { exact: false }).waitFor();
    await low.getByText('Unread:', { exact: false }).waitFor();
    const badge = nav.getByRole('link', { name: 'Notifications, 1 unread' });
    await badge.waitFor();
    await page.getByText('1 unread', { exact: true }).waitFor();
    expect(await wasReloaded(page)).toBe(false);

    await low.click();
    await expectPath(page, '/billing');
    await badge.waitFor({ state: 'detached' });
    await nav.getByRole('link', { name: 'Notifications', exact: true }).waitFor();

    // Both jobs complete on a real agent: two unread 'completed' notifications.
    const second = await submitJob(server.url, enterprise, QUICK_JOB);
    const provider = await createAccount(server.url, 'node_provider');
    startAgent(provider.email, provider.password, 'notifications-worker');
    await nav.getByRole('link', { name: 'Notifications', exact: true }).click();
    await expectPath(page, '/notifications');
    for (const job of [first, second]) {
      await page
        .getByRole('link', { name: `Unread: Fibonacci job ${job.id.slice(0, 8)} completed` })
        .waitFor({ timeout: LIVE_TIMEOUT * 2 });
    }
    await nav.getByRole('link', { name: 'Notifications, 2 unread' }).waitFor();
    await page.getByText('2 unread', { exact: true }).waitFor();
    // The one opened before stays read.
    expect(await low.getByText('Unread:', { exact: false }).count()).toBe(0);

    await page.getByRole('button', { name: 'Mark all as read' }).click();
    await page.getByText('All caught up').waitFor();
    await nav.getByRole('link', { name: 'Notifications', exact: true }).waitFor();
    expect(await page.getByText('Unread:', { exact: false }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Mark all as read' }).isDisabled()).toBe(true);
    expect(await wasReloaded(page)).toBe(false);
  }, 150_000);

  it('an enterprise deletes its account from the Danger Zone and can no longer sign in', async () => {
    const enterprise = await createAccount(server.url, 'enterprise', { credits: 7 });
    const page = await openPage();
    await signInAndWait(page, enterprise.email, enterprise.password);
    await page.goto('/settings');
    await page.getByText('Danger Zone').waitFor();
    await page.getByRole('button', { name: 'Delete Account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    const form = dialog.getByRole('form', { name: 'Delete account' });
    const password = form.getByLabel('Current Password');
    await password.fill('not the password');
    await form.getByLabel('Type DELETE to confirm').fill('DELETE');
    await form.getByRole('button', { name: 'Delete my account' }).click();
    await form.getByText('Current password is incorrect').waitFor();
    expect(await password.getAttribute('aria-invalid')).toBe('true');
    expect(new URL(page.url()).pathname).toBe('/settings');

    await password.fill(enterprise.password);
    await form.getByRole('button', { name: 'Delete my account' }).click();
    await expectPath(page, '/auth/signin');
    await toasts(page)
      .getByText(
        'Your account was closed. $7.00 left in it is kept as unclaimed funds; contact support to have it returned.',
      )
      .waitFor();

    await signInThroughForm(page, enterprise.email, enterprise.password);
    await toasts(page).getByText('Sign in failed').waitFor();
    expect(new URL(page.url()).pathname).toBe('/auth/signin');
  });
});
