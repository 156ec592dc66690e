import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startAgentProcess, type RunningAgent } from '../support/agent.ts';
import { baseUrl, launchBrowser, openPage, uniqueEmail } from '../support/browser.ts';
import {
  PASSWORD,
  addCreditsInPage,
  expectPath,
  signUpThroughForm,
  toasts,
} from '../support/flows.ts';

// The working day of each role on live data: a provider's enrolled device on My Nodes, an
// enterprise's job submitted from the form, run by a real agent, and listed on My Jobs.

let browser: Browser;
const agents: RunningAgent[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});
afterEach(async () => {
  for (const agent of agents) agent.signal('SIGKILL');
  await Promise.all(agents.map((agent) => agent.exited));
  agents.length = 0;
});
afterAll(async () => {
  await browser.close();
});

describe('provider and enterprise screens', () => {
  it('a provider sees an enrolled device on My Nodes; an enterprise submits a job that the device runs', async () => {
    const provider = await openPage(browser);
    const providerEmail = uniqueEmail('screens-provider');
    await signUpThroughForm(provider.page, {
      role: 'node_provider',
      email: providerEmail,
      password: PASSWORD,
      name: 'Screen Provider',
    });
    await provider.page.goto('/nodes');
    await provider.page.getByText('No Nodes Registered').waitFor();

    const agent = startAgentProcess({
      serverUrl: baseUrl(),
      email: providerEmail,
      password: PASSWORD,
      name: 'studio-mac',
    });
    agents.push(agent);
    await agent.waitForOutput(/Connected to/);
    await provider.page.reload();
    await provider.page.getByText('studio-mac').first().waitFor();
    await provider.page.getByText('Online').first().waitFor();

    const enterprise = await openPage(browser);
    await signUpThroughForm(enterprise.page, {
      role: 'enterprise',
      email: uniqueEmail('screens-enterprise'),
      password: PASSWORD,
      organizationName: 'Screens Inc',
    });
    await addCreditsInPage(enterprise.page, 50);
    await enterprise.page.goto('/jobs/submit');
    const form = enterprise.page.getByRole('form', { name: 'Submit New Job' });
    await form.getByRole('button', { name: 'Submit Job' }).click();
    await form.getByText('Please select a job type').waitFor();
    await form.getByLabel('Job Type').selectOption('fibonacci');
    await form.getByLabel('Job Parameters (JSON)').fill('{"n": ');
    await form.getByRole('button', { name: 'Submit Job' }).click();
    await form.getByText('Invalid JSON in parameters field').waitFor();
    await form.getByLabel('Job Parameters (JSON)').fill('{"n": 90}');
    await form.getByRole('button', { name: 'Submit Job' }).click();
    await toasts(enterprise.page).getByText('Job submitted successfully!').waitFor();
    await expectPath(enterprise.page, '/jobs');

    // No live updates yet (next issue): reload until the agent's verified result is in.
    const deadline = Date.now() + 30_000;
    for (;;) {
      await enterprise.page.reload();
      await enterprise.page.getByRole('table').waitFor();
      if (
        (await enterprise.page
          .getByRole('table')
          .getByText(/completed/i)
          .count()) > 0
      )
        break;
      if (Date.now() > deadline) throw new Error('the job did not complete on My Jobs');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(
      await enterprise.page
        .getByRole('table')
        .getByText(/fibonacci/i)
        .count(),
    ).toBeGreaterThan(0);

    await provider.page.goto('/');
    await provider.page.getByText('studio-mac').first().waitFor();
    await provider.context.close();
    await enterprise.context.close();
  });

  it('a provider enrolls a device with a one-time code from Add Node, without a password on it', async () => {
    const { page } = await openPage(browser);
    await signUpThroughForm(page, {
      role: 'node_provider',
      email: uniqueEmail('code-provider'),
      password: PASSWORD,
      name: 'Code Provider',
    });
    await page.goto('/nodes');
    await page.getByText('No Nodes Registered').waitFor();
    await page.getByRole('button', { name: 'Add Node' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add a Node' });
    await dialog.getByRole('button', { name: 'Create Enrollment Code' }).click();
    const command = await dialog.getByTestId('agent-code-command').innerText();
    const code = /--code ([A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4})$/.exec(command.trim())?.[1];
    expect(command).toContain(`--server ${baseUrl()}`);
    expect(code).toBeDefined();
    await page.keyboard.press('Escape');

    const agent = startAgentProcess({ serverUrl: baseUrl(), code, name: 'code-enrolled' });
    agents.push(agent);
    await agent.waitForOutput(/Connected to/);
    // Live updates bring the node in without a reload.
    await page.getByRole('article', { name: 'code-enrolled' }).waitFor();

    // The code worked once: a second device cannot use it.
    const second = startAgentProcess({ serverUrl: baseUrl(), code, name: 'second-device' });
    agents.push(second);
    expect(await second.exited).not.toBe(0);
    expect(second.output()).toContain('This enrollment code was already used.');
  });
});
