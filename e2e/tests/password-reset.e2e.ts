import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, uniqueEmail } from '../support/browser.ts';
import {
  PASSWORD,
  expectPath,
  signInThroughForm,
  signOutThroughMenu,
  signUpThroughForm,
  toasts,
} from '../support/flows.ts';
import { startServer, type RunningServer } from '../support/server.ts';

// This file runs its own server so it can read the reset link the server writes to its log
// (no SMTP is configured, which is the documented fallback delivery).
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

async function waitForResetLink(email: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const line = server
      .logs()
      .split('\n')
      .find((entry) => entry.includes(email) && entry.includes('/auth/reset-password?token='));
    const link = line?.match(
      /https?:\/\/[^\s"\\]+\/auth\/reset-password\?token=[A-Za-z0-9_-]+/,
    )?.[0];
    if (link) return link;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no reset link for ${email} in the server log:\n${server.logs()}`);
}

describe('forgot password', () => {
  it('a user resets a forgotten password with the emailed link and signs in with the new one', async () => {
    const context = await browser.newContext({ baseURL: server.url });
    const page = await context.newPage();
    const email = uniqueEmail('forgetful');
    await signUpThroughForm(page, {
      role: 'node_provider',
      email,
      password: PASSWORD,
      name: 'Forgetful',
    });
    await signOutThroughMenu(page);

    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expectPath(page, '/auth/forgot-password');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: /send/i }).click();
    await page
      .getByText('If an account exists for that email, a reset link is on its way.')
      .waitFor();

    const link = await waitForResetLink(email);
    await page.goto(link);
    const newPassword = 'a brand new passphrase';
    await page.getByLabel('New Password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm Password', { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expectPath(page, '/auth/signin');

    await signInThroughForm(page, email, PASSWORD);
    await toasts(page).getByText('Sign in failed').waitFor();
    await signInThroughForm(page, email, newPassword);
    await toasts(page).getByText('Welcome back!').waitFor();
    await expectPath(page, '/');

    // The link was single-use.
    await page.evaluate(() => localStorage.clear());
    await page.goto(link);
    await page.getByLabel('New Password', { exact: true }).fill('yet another passphrase');
    await page.getByLabel('Confirm Password', { exact: true }).fill('yet another passphrase');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page
      .getByText(/invalid|expired|already been used/i)
      .first()
      .waitFor();
    expect(new URL(page.url()).pathname).toBe('/auth/reset-password');
    await context.close();
  });
});
