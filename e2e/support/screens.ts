import { apiPaths, jobSchema, SHORT_ID_LENGTH, type Job } from '@fabric/contract';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startAgentProcess, type RunningAgent } from './agent.ts';
import { expectPath, toasts } from './flows.ts';
import { startServer, type RunningServer } from './server.ts';

// Helpers for the provider and enterprise screens on live data (tests/live-screens.e2e.ts).

/** Generous: these are deadlines for something that must happen, never a measure of speed. */
export const LIVE_TIMEOUT = 45_000;

/** A fresh browser context (its own storage) with a page on the app served at `url`. */
export async function openPageAt(
  browser: Browser,
  url: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: url,
    viewport: { width: 1280, height: 800 },
  });
  const page = await context.newPage();
  return { context, page };
}

/** Signs in through the form and waits for the dashboard. */
export async function signInAndWait(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/auth/signin');
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password').fill(password);
  await form.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/');
}

/**
 * Marks the page's window; `wasReloaded` then tells whether the document was loaded again since
 * (client-side navigation keeps the window, a reload or a full navigation does not).
 */
export async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as Record<string, unknown>).__liveScreensMark = true;
  });
}
export async function wasReloaded(page: Page): Promise<boolean> {
  return page.evaluate(
    () => (window as unknown as Record<string, unknown>).__liveScreensMark !== true,
  );
}

/**
 * Fills and sends the Submit New Job form (the page must be on it) and returns the job the server
 * created, read from the submit response; waits for the toast and the move to My Jobs.
 */
export async function submitJobThroughForm(
  page: Page,
  jobType: string,
  paramsText: string,
  priority?: 'Normal' | 'High',
): Promise<Job> {
  const form = page.getByRole('form', { name: 'Submit New Job' });
  await form.getByLabel('Job Type').selectOption(jobType);
  if (priority) await form.getByLabel('Priority').selectOption({ label: priority });
  await form.getByLabel('Job Parameters (JSON)').fill(paramsText);
  const [response] = await Promise.all([
    page.waitForResponse(
      (candidate) =>
        new URL(candidate.url()).pathname === apiPaths.jobs.submit &&
        candidate.request().method() === 'POST',
    ),
    form.getByRole('button', { name: 'Submit Job' }).click(),
  ]);
  if (!response.ok()) throw new Error(`submit answered ${response.status()}`);
  const job = jobSchema.parse(await response.json());
  // Toasts of earlier submits may still be showing: at least one says so.
  await toasts(page).getByText('Job submitted successfully!').first().waitFor();
  await page.waitForURL((url) => url.pathname === '/jobs');
  return job;
}

/** The row of My Jobs that links to this job. */
export function jobRow(page: Page, jobId: string): Locator {
  return page.getByRole('row').filter({
    has: page.getByRole('link', { name: `View job ${jobId.slice(0, SHORT_ID_LENGTH)}` }),
  });
}

/**
 * Opens a job's details from its My Jobs row. Waits for the details page itself, not just the
 * address: the list stays on screen until the next route has rendered, and its badges would match.
 */
export async function openJobDetailsFromList(page: Page, jobId: string): Promise<void> {
  await jobRow(page, jobId).getByRole('link').click();
  await expectPath(page, `/jobs/${jobId}`);
  await page.getByRole('heading', { level: 1, name: 'Job Details' }).waitFor();
}

/** A job or node status badge with this status inside `scope`. */
export function statusBadge(scope: Page | Locator, status: string): Locator {
  return scope.locator(`[data-status="${status}"]`);
}

/** The job ids the View links of the current My Jobs page point at, top to bottom. */
export async function jobIdsOnPage(page: Page): Promise<string[]> {
  const hrefs = await page
    .getByRole('table')
    .getByRole('link', { name: /^View job / })
    .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
  return hrefs.map((href) => href.replace(/^\/jobs\//, ''));
}

/** The value next to a label in a result's or summary's definition list. */
export function fact(scope: Page | Locator, label: string): Locator {
  const exactly = new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  return scope.locator('dt').filter({ hasText: exactly }).locator('xpath=following-sibling::dd[1]');
}

/** Resolves with the agent's exit code, or fails once the (generous) deadline has passed. */
export async function agentExit(agent: RunningAgent, timeoutMs = LIVE_TIMEOUT) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the agent did not exit:\n${agent.output()}`)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([agent.exited, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** C = A·B for small inline matrices, and the sum of C's entries (the result's checksum). */
export function multiply(a: number[][], b: number[][]): { c: number[][]; checksum: number } {
  const c = a.map((row) =>
    (b[0] ?? []).map((_, column) =>
      row.reduce((sum, value, index) => sum + value * (b[index]?.[column] ?? Number.NaN), 0),
    ),
  );
  const checksum = c.flat().reduce((sum, value) => sum + value, 0);
  return { c, checksum };
}

export interface OwnServer {
  /** The server's base URL (valid once the file's beforeAll has run). */
  readonly url: string;
  /** A fresh browser context (its own storage) with a page on this server; closed after the test. */
  openPage: () => Promise<Page>;
  /** A real agent process of the given provider; killed after the test. */
  startAgent: (email: string, password: string, name: string) => RunningAgent;
}

/**
 * Registers the hooks of a describe block whose tests need a server of their own (so no other
 * file's agent takes their jobs, and no job a failed test leaves queued reaches another file):
 * the server starts before the block and stops after it; each test's agents and browser contexts
 * end with the test, so none outlives it and takes the next test's jobs.
 */
export function useOwnServer(browser: () => Browser): OwnServer {
  let server: RunningServer | undefined;
  const agents: RunningAgent[] = [];
  const contexts: BrowserContext[] = [];
  const urlOf = () => {
    if (!server) throw new Error('The server starts in beforeAll');
    return server.url;
  };

  beforeAll(async () => {
    server = await startServer({ LOG_LEVEL: 'warn' });
  });
  afterEach(async () => {
    for (const agent of agents) agent.signal('SIGKILL');
    await Promise.all(agents.map((agent) => agent.exited));
    agents.length = 0;
    await Promise.all(contexts.map((context) => context.close()));
    contexts.length = 0;
  });
  afterAll(async () => {
    await server?.stop();
  });

  return {
    get url() {
      return urlOf();
    },
    openPage: async () => {
      const opened = await openPageAt(browser(), urlOf());
      contexts.push(opened.context);
      return opened.page;
    },
    startAgent: (email, password, name) => {
      const agent = startAgentProcess({ serverUrl: urlOf(), email, password, name });
      agents.push(agent);
      return agent;
    },
  };
}
