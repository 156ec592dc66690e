import { readFileSync } from 'node:fs';
import pg from 'pg';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, getJob, submitJob } from '../support/api.ts';
import { launchBrowser, uniqueEmail } from '../support/browser.ts';
import {
  PASSWORD,
  addCreditsInPage,
  expectPath,
  signUpThroughForm,
  toasts,
} from '../support/flows.ts';
import {
  createPostgresDatabase,
  isPostgresReachable,
  POSTGRES_SKIPPED_TITLE,
} from '../support/postgres.ts';
import {
  LIVE_TIMEOUT,
  agentExit,
  fact,
  jobIdsOnPage,
  jobRow,
  markDocument,
  multiply,
  openJobDetailsFromList,
  openPageAt,
  signInAndWait,
  statusBadge,
  submitJobThroughForm,
  wasReloaded,
  useOwnServer,
} from '../support/screens.ts';
import { startServer, type RunningServer } from '../support/server.ts';

// The provider and enterprise screens on live data: every signed-in page follows the server's
// change stream, so jobs and nodes change on screen as the network works, without a reload.
// Real server processes, real agent processes, Chromium; nothing is mocked.

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

describe('live screens on the embedded database', () => {
  const server = useOwnServer(() => browser);
  const { openPage, startAgent } = server;

  it('jobs submitted from the form wait queued, then run and complete on screen once an agent starts, with the right results', async () => {
    const page = await openPage();
    await signUpThroughForm(page, {
      role: 'enterprise',
      email: uniqueEmail('live-enterprise'),
      password: PASSWORD,
      organizationName: 'Live Data Inc',
    });
    await addCreditsInPage(page, 50);
    await page.goto('/jobs/submit');
    await markDocument(page);
    const main = page.getByRole('main');

    const a = [
      [1, 2, 3],
      [4, 5, 6],
    ];
    const b = [
      [7, 8],
      [9, 10],
      [11, 12],
    ];
    const product = multiply(a, b);

    const fibonacci = await submitJobThroughForm(page, 'fibonacci', '{"n": 100}');
    await main.getByRole('link', { name: 'Submit New Job' }).click();
    const sieve = await submitJobThroughForm(page, 'prime_sieve', '{"limit": 1000}');
    await main.getByRole('link', { name: 'Submit New Job' }).click();
    const matrix = await submitJobThroughForm(
      page,
      'matrix_multiply',
      JSON.stringify({ a, b }),
      'High',
    );
    await main.getByRole('link', { name: 'Submit New Job' }).click();
    // Runs for seconds on one core, long enough to be watched while it runs.
    const long = await submitJobThroughForm(page, 'prime_sieve', '{"limit": 10000000000}');
    expect(matrix.priority).toBe(1);

    // No agent yet: all four wait in the queue.
    for (const job of [fibonacci, sieve, matrix, long])
      await statusBadge(jobRow(page, job.id), 'queued').waitFor();
    await page.getByRole('tab', { name: 'All 4', exact: true }).waitFor();
    await page.getByRole('tab', { name: 'Running 4', exact: true }).waitFor();
    await page.getByRole('tab', { name: 'Completed 0', exact: true }).waitFor();

    // A second tab of the same session follows the long job on its Job Details page.
    const details = await page.context().newPage();
    await details.goto(`/jobs/${long.id}`);
    await markDocument(details);
    await statusBadge(details, 'queued').waitFor();
    await details.getByText('Queued', { exact: true }).waitFor();

    const provider = await createAccount(server.url, 'node_provider');
    const agent = startAgent(provider.email, provider.password, 'live-worker');

    // My Jobs turns each job completed without a reload.
    for (const job of [fibonacci, sieve, matrix])
      await statusBadge(jobRow(page, job.id), 'completed').waitFor({ timeout: LIVE_TIMEOUT });

    // The long job shows running with its progress bar, then its verified result.
    await statusBadge(details, 'running').waitFor({ timeout: LIVE_TIMEOUT });
    await details.getByRole('progressbar', { name: 'Progress' }).waitFor();
    await statusBadge(details, 'completed').waitFor({ timeout: 90_000 });
    await details.getByRole('progressbar').waitFor({ state: 'detached' });
    expect(await fact(details, 'Primes up to the limit').innerText()).toBe('455,052,511');
    expect(await fact(details, 'Largest prime').innerText()).toBe('9,999,999,967');
    expect(await details.getByRole('button', { name: 'Cancel Job' }).count()).toBe(0);
    expect(await wasReloaded(details)).toBe(false);
    await details.close();

    await statusBadge(jobRow(page, long.id), 'completed').waitFor({ timeout: LIVE_TIMEOUT });
    await page.getByRole('tab', { name: 'Completed 4', exact: true }).waitFor();
    await page.getByRole('tab', { name: 'Running 0', exact: true }).waitFor();
    expect(await wasReloaded(page)).toBe(false);

    // Each result read on Job Details.
    await openJobDetailsFromList(page, fibonacci.id);
    await statusBadge(page, 'completed').waitFor();
    expect(await fact(page, 'Digits').innerText()).toBe('21');
    expect(await page.getByRole('region', { name: 'F(100)' }).locator('pre').innerText()).toBe(
      '354224848179261915075',
    );

    await page.getByRole('link', { name: 'Back to My Jobs' }).first().click();
    await openJobDetailsFromList(page, sieve.id);
    await statusBadge(page, 'completed').waitFor();
    expect(await fact(page, 'Limit').innerText()).toBe('1,000');
    expect(await fact(page, 'Primes up to the limit').innerText()).toBe('168');
    expect(await fact(page, 'Largest prime').innerText()).toBe('997');

    await page.getByRole('link', { name: 'Back to My Jobs' }).first().click();
    await openJobDetailsFromList(page, matrix.id);
    await statusBadge(page, 'completed').waitFor();
    expect(await fact(page, 'Checksum (sum of C)').innerText()).toBe(String(product.checksum));
    expect(await fact(page, 'Freivalds check').getByText('Passed').count()).toBe(1);
    const cells = await page
      .getByRole('region', { name: 'Product matrix C, scrollable' })
      .getByRole('row')
      .evaluateAll((rows) =>
        rows.map((row) => Array.from(row.querySelectorAll('td'), (cell) => cell.textContent)),
      );
    expect(cells).toEqual(product.c.map((row) => row.map(String)));

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download JSON' }).click(),
    ]);
    const saved = JSON.parse(readFileSync(await download.path(), 'utf8')) as {
      job_id: string;
      result: { checksum: number; c: number[][] };
    };
    expect(saved.job_id).toBe(matrix.id);
    expect(saved.result.checksum).toBe(product.checksum);
    expect(saved.result.c).toEqual(product.c);
    expect(await wasReloaded(page)).toBe(false);

    agent.signal('SIGTERM');
    await agentExit(agent);
  }, 180_000);

  /** Opens a queued job (no agent runs) on Job Details, cancels it and confirms; the page stays on it. */
  async function cancelQueuedJobFromDetails(): Promise<Page> {
    const enterprise = await createAccount(server.url, 'enterprise');
    const job = await submitJob(server.url, enterprise, {
      job_type: 'fibonacci',
      params: { n: 1000 },
    });
    const page = await openPage();
    await signInAndWait(page, enterprise.email, enterprise.password);
    await page.goto(`/jobs/${job.id}`);
    await statusBadge(page, 'queued').waitFor();

    await page.getByRole('button', { name: 'Cancel Job' }).click();
    const dialog = page.getByRole('dialog', { name: `Cancel job ${job.id.slice(0, 8)}?` });
    await dialog.getByText('The job leaves the queue and never runs.', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Yes, Cancel Job' }).click();
    await statusBadge(page, 'cancelled').waitFor();
    await page.getByText('Cancelled by its owner').waitFor();
    await dialog.waitFor({ state: 'detached' });
    expect(await page.getByRole('button', { name: 'Cancel Job' }).count()).toBe(0);
    expect((await getJob(server.url, enterprise, job.id)).status).toBe('cancelled');
    return page;
  }

  it('a queued job is cancelled from Job Details after confirming, with the Job cancelled toast', async () => {
    const page = await cancelQueuedJobFromDetails();
    await toasts(page).getByText('Job cancelled').waitFor();
  });

  it('a provider sees a node enroll on My Nodes without a reload, then pauses, resumes and unenrolls it', async () => {
    const provider = await createAccount(server.url, 'node_provider');
    const page = await openPage();
    await signInAndWait(page, provider.email, provider.password);
    await page.goto('/nodes');
    await markDocument(page);
    await page.getByText('No Nodes Registered').waitFor();

    const agent = startAgent(provider.email, provider.password, 'live-studio');
    const card = page.getByRole('article', { name: 'live-studio' });
    await card.waitFor({ timeout: LIVE_TIMEOUT });
    await statusBadge(card, 'online').waitFor({ timeout: LIVE_TIMEOUT });
    expect(await page.getByText('No Nodes Registered').count()).toBe(0);

    await card.click();
    await page.waitForURL((url) => /^\/nodes\/[0-9a-f-]{36}$/.test(url.pathname));
    await page.getByTestId('node-name').getByText('live-studio').waitFor();
    await page.getByRole('heading', { name: 'Recent Jobs' }).waitFor();

    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await toasts(page).getByText('Node paused').waitFor();
    await statusBadge(page, 'paused').getByText('Paused').waitFor();

    await page.getByRole('button', { name: 'Resume', exact: true }).click();
    await toasts(page).getByText('Node resumed').waitFor();
    await statusBadge(page, 'online').getByText('Online').waitFor();
    await page.getByRole('button', { name: 'Pause', exact: true }).waitFor();

    await page.getByRole('button', { name: 'Unenroll', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Unenroll live-studio?' });
    await dialog.getByRole('button', { name: 'Unenroll Node' }).click();
    await toasts(page).getByText('Node unenrolled').waitFor();
    await expectPath(page, '/nodes');
    await page.getByText('No Nodes Registered').waitFor();
    expect(await wasReloaded(page)).toBe(false);

    // The agent learns it no longer belongs to the network and stops.
    expect(await agentExit(agent)).toBe(2);
    expect(agent.output()).toContain('The server no longer accepts this node');
  });

  it('a new enterprise sees No Jobs Yet, and the Submit form shows the server’s refusal of bad params', async () => {
    // 'Please select a job type', 'Invalid JSON in parameters field', 'No Nodes Registered' and
    // the provider's redirect away from the submit page are covered by screens and auth tests.
    const page = await openPage();
    await signUpThroughForm(page, {
      role: 'enterprise',
      email: uniqueEmail('live-empty'),
      password: PASSWORD,
      organizationName: 'Empty Co',
    });
    await addCreditsInPage(page, 50);
    await page.goto('/jobs');
    await page.getByText('No Jobs Yet').waitFor();

    await page.getByRole('main').getByRole('link', { name: 'Submit New Job' }).click();
    await expectPath(page, '/jobs/submit');
    const form = page.getByRole('form', { name: 'Submit New Job' });
    const params = form.getByLabel('Job Parameters (JSON)');
    const send = form.getByRole('button', { name: 'Submit Job' });

    await form.getByLabel('Job Type').selectOption('fibonacci');
    await params.fill('{"n": 10000001}');
    await send.click();
    await form.getByText('n must be at most 10000000').waitFor();
    await toasts(page).getByText('n must be at most 10000000').waitFor();
    expect(await params.getAttribute('aria-invalid')).toBe('true');

    await params.fill('{"m": 5}');
    await send.click();
    await form.getByText('fibonacci accepts only n').waitFor();

    await form.getByLabel('Job Type').selectOption('matrix_multiply');
    await params.fill('{"a": [[1, 2, 3]], "b": [[1], [2]]}');
    await send.click();
    await form.getByText('b must have as many rows (2) as a has columns (3)').waitFor();

    // Nothing was created.
    expect(new URL(page.url()).pathname).toBe('/jobs/submit');
    await page.goto('/jobs');
    await page.getByText('No Jobs Yet').waitFor();
  });
});

function tenThousandJobsSuite() {
  let server: RunningServer;
  let databaseUrl: string;
  let dropDatabase: (() => Promise<void>) | undefined;
  let context: BrowserContext | undefined;

  beforeAll(async () => {
    const created = await createPostgresDatabase();
    databaseUrl = created.url;
    dropDatabase = created.drop;
    server = await startServer({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' });
  });

  afterAll(async () => {
    await context?.close();
    await server.stop();
    await dropDatabase?.();
  });

  it('My Jobs of an enterprise with 10,000 jobs counts every tab exactly and pages to the end', async () => {
    const enterprise = await createAccount(server.url, 'enterprise');
    const counts = { completed: 7013, failed: 1987, queued: 590, cancelled: 410 };
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    let newest: string[];
    let oldest: string[];
    let oldestQueued: string[];
    try {
      // One statement: statuses in blocks, submission times shuffled (7919 is prime to 10,000,
      // so every job gets its own second) so that each page mixes them.
      await client.query(
        `INSERT INTO jobs (owner_id, job_type, params, status, max_attempts, error,
                           created_at, updated_at, started_at, finished_at)
         SELECT $1, 'fibonacci', jsonb_build_object('n', g), s.status::job_status, 3,
                CASE WHEN s.status IN ('failed', 'cancelled') THEN 'seeded ' || s.status END,
                t.created, t.created,
                CASE WHEN s.status IN ('completed', 'failed') THEN t.created END,
                CASE WHEN s.status <> 'queued' THEN t.created + interval '1 second' END
         FROM generate_series(1, 10000) AS g
         CROSS JOIN LATERAL (SELECT CASE WHEN g <= $2 THEN 'completed'
                                         WHEN g <= $3 THEN 'failed'
                                         WHEN g <= $4 THEN 'queued'
                                         ELSE 'cancelled' END AS status) AS s
         CROSS JOIN LATERAL (SELECT now() - ((g * 7919) % 10000 + 1) * interval '1 second'
                               AS created) AS t`,
        [
          enterprise.userId,
          counts.completed,
          counts.completed + counts.failed,
          counts.completed + counts.failed + counts.queued,
        ],
      );
      const ids = async (where: string, suffix: string) =>
        (
          await client.query<{ id: string }>(
            `SELECT id FROM jobs WHERE owner_id = $1 ${where}
             ORDER BY created_at DESC, sequence DESC ${suffix}`,
            [enterprise.userId],
          )
        ).rows.map((row) => row.id);
      newest = await ids('', 'LIMIT 20');
      oldest = await ids('', 'OFFSET 9980');
      oldestQueued = await ids(`AND status = 'queued'`, 'OFFSET 580');
    } finally {
      await client.end();
    }
    expect(oldestQueued).toHaveLength(10);

    const opened = await openPageAt(browser, server.url);
    context = opened.context;
    const { page } = opened;
    await signInAndWait(page, enterprise.email, enterprise.password);
    await page.goto('/jobs');

    await page.getByRole('tab', { name: 'All 10000', exact: true }).waitFor();
    await page.getByRole('tab', { name: 'Running 590', exact: true }).waitFor();
    await page.getByRole('tab', { name: 'Completed 7013', exact: true }).waitFor();
    await page.getByRole('tab', { name: 'Failed 1987', exact: true }).waitFor();
    const pagination = page.getByRole('navigation', { name: 'Pagination' });
    await pagination.getByText('Page 1 of 500').waitFor();
    expect(await jobIdsOnPage(page)).toEqual(newest);
    expect(await pagination.getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true);

    // A few pages forward, then the last page at once: the 20 oldest jobs.
    const next = pagination.getByRole('button', { name: 'Next' });
    for (let current = 2; current <= 5; current += 1) {
      await next.click();
      await pagination.getByText(`Page ${current} of 500`).waitFor();
    }
    await pagination.getByRole('button', { name: 'Last page' }).click();
    await pagination.getByText('Page 500 of 500').waitFor();
    await expect.poll(() => jobIdsOnPage(page), { timeout: LIVE_TIMEOUT }).toEqual(oldest);
    expect(await next.isDisabled()).toBe(true);

    // The Running tab (queued or running) has 30 pages; the last holds the 10 oldest.
    await page.getByRole('tab', { name: 'Running 590', exact: true }).click();
    await pagination.getByText('Page 1 of 30').waitFor();
    for (let current = 2; current <= 30; current += 1) {
      await next.click();
      await pagination.getByText(`Page ${current} of 30`).waitFor();
    }
    await expect.poll(() => jobIdsOnPage(page), { timeout: LIVE_TIMEOUT }).toEqual(oldestQueued);
    expect(await next.isDisabled()).toBe(true);
    expect(await statusBadge(page.getByRole('table'), 'queued').count()).toBe(10);
    // The counts still cover every job, whatever the tab.
    await page.getByRole('tab', { name: 'All 10000', exact: true }).waitFor();
  }, 180_000);
}

if (isPostgresReachable) describe('10,000 jobs on PostgreSQL', () => tenThousandJobsSuite());
else describe.skip(POSTGRES_SKIPPED_TITLE, () => tenThousandJobsSuite());
