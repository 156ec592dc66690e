import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentPaths, registerNodeResponseSchema } from '@fabric/contract';
import {
  callApi,
  createAccount,
  submitJob,
  waitForUnreadNotification,
  type Account,
} from '../support/api.ts';
import { baseUrl, launchBrowser } from '../support/browser.ts';
import { signInAndWait } from '../support/screens.ts';

// Every screen, checked with axe-core (WCAG 2.1 A and AA rules) on desktop and phone widths:
// no serious or critical violation.

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: axePath });
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (options: unknown) => Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    const result = await axe.run({
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return result.violations;
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact ?? ''}): ${violation.help} — ${violation.nodes
          .slice(0, 3)
          .map((node) => node.target.join(' '))
          .join(', ')}`,
    );
}

let browser: Browser;
let provider: Account;
let enterprise: Account;
let jobId: string;
let nodeId: string;

beforeAll(async () => {
  browser = await launchBrowser();
  provider = await createAccount(baseUrl(), 'node_provider');
  // $11 of credits: the job's $2.40 hold crosses the $10 low-credit line, so the enterprise has an
  // unread notification and every page shows the nav's unread badge.
  enterprise = await createAccount(baseUrl(), 'enterprise', { credits: 11 });
  jobId = (await submitJob(baseUrl(), enterprise, { job_type: 'fibonacci', params: { n: 10 } })).id;
  // A node enrolled the way the agent does it, so Node Details has something to show.
  const enrolled = registerNodeResponseSchema.parse(
    await callApi(baseUrl(), 'POST', agentPaths.register, {
      token: provider.token,
      body: {
        device_id: `a11y-${Date.now().toString(36)}`,
        name: 'Accessibility check',
        hardware_info: { cpu: 'Test CPU', cores: 4, memory: '8 GB' },
        supported_job_types: ['fibonacci'],
        agent_version: '0.1.0',
      },
    }),
  );
  nodeId = enrolled.node.id;
  // The node never sends a heartbeat: once its lease runs out the sweeper reports it offline,
  // which gives the provider an unread notification too. Checking before that would let the
  // badge appear halfway through the run.
  await Promise.all(
    [provider, enterprise].map((account) => waitForUnreadNotification(baseUrl(), account)),
  );
}, 90_000);
afterAll(async () => {
  await browser.close();
});

async function check(pages: string[], width: number, account?: Account) {
  // The app's CSP forbids inline scripts, axe's injection included: bypass it for this check only.
  const context = await browser.newContext({
    baseURL: baseUrl(),
    viewport: { width, height: 900 },
    bypassCSP: true,
  });
  const page = await context.newPage();
  try {
    if (account) await signInAndWait(page, account.email, account.password);
    const problems: string[] = [];
    for (const path of pages) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      // Let the page's data arrive, so the check sees the real screen, not a skeleton.
      await expect
        .poll(() => page.locator('[data-slot="skeleton"]').count(), { timeout: 20_000 })
        .toBe(0);
      for (const violation of await seriousViolations(page)) problems.push(`${path}: ${violation}`);
    }
    expect(problems).toEqual([]);
  } finally {
    await context.close();
  }
}

describe.each([1280, 375])('accessibility at %i px', (width) => {
  it('public pages', async () => {
    await check(
      [
        '/auth/signin',
        '/auth/signup',
        '/auth/forgot-password',
        '/terms',
        '/privacy',
        '/no-such-page',
      ],
      width,
    );
  });

  it('a node provider’s pages', async () => {
    await check(
      ['/', '/nodes', `/nodes/${nodeId}`, '/billing', '/settings', '/notifications'],
      width,
      provider,
    );
  });

  it('an enterprise’s pages', async () => {
    await check(
      ['/', '/jobs', '/jobs/submit', `/jobs/${jobId}`, '/billing', '/settings', '/notifications'],
      width,
      enterprise,
    );
  });
});
