import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, uniqueEmail } from '../support/browser.ts';
import {
  PASSWORD,
  expectPath,
  navLinkNames,
  signInThroughForm,
  signOutThroughMenu,
  signUpThroughForm,
  storage,
  toasts,
} from '../support/flows.ts';

let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});
beforeEach(async () => {
  ({ context, page } = await openPage(browser));
});
afterEach(async () => {
  await context.close();
});

describe('sign up', () => {
  it('a node provider signs up from /auth/node-provider and lands on the provider dashboard', async () => {
    const email = uniqueEmail('provider');
    await page.goto('/auth/node-provider');
    expect(await page.getByRole('tab', { name: 'Sign Up' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    expect(await page.getByRole('radio', { name: 'Share my compute' }).isChecked()).toBe(true);

    await signUpThroughForm(page, {
      role: 'node_provider',
      email,
      password: PASSWORD,
      name: 'Grace Hopper',
    });

    expect(await navLinkNames(page)).toEqual([
      'Dashboard',
      'My Nodes',
      'Earnings',
      'Notifications',
    ]);
    const stored = await storage(page);
    expect(stored.fabric_user_role).toBe('node_provider');
    expect(stored.fabric_user_email).toBe(email);
    expect(stored.fabric_access_token).toBeTruthy();
    expect(stored.fabric_refresh_token).toBeTruthy();
    expect(stored.fabric_user_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('an enterprise signs up from /auth/enterprise and sees its organization on the enterprise dashboard', async () => {
    const email = uniqueEmail('enterprise');
    await page.goto('/auth/enterprise');
    expect(await page.getByRole('radio', { name: 'Run AI workloads' }).isChecked()).toBe(true);

    await signUpThroughForm(page, {
      role: 'enterprise',
      email,
      password: PASSWORD,
      organizationName: 'Acme Genomics',
    });

    expect(await navLinkNames(page)).toEqual(['Dashboard', 'My Jobs', 'Billing', 'Notifications']);
    await page.getByRole('heading', { name: 'Acme Genomics' }).waitFor();
    expect((await storage(page)).fabric_user_role).toBe('enterprise');
  });

  it('shows the form errors of the chosen role before sending anything', async () => {
    await page.goto('/auth/enterprise');
    const form = page.getByRole('form', { name: 'Sign up' });
    await form.getByRole('button', { name: 'Create Account' }).click();
    await form.getByText('Email is required').waitFor();
    await form.getByText('Organization Name is required').waitFor();
    await form.getByText('Domain is required').waitFor();
    await form.getByText('Industry is required').waitFor();
    expect(await storage(page)).toEqual({});
  });

  it('an email that already has an account gets the Registration failed toast with the reason', async () => {
    const email = uniqueEmail('twice');
    await signUpThroughForm(page, {
      role: 'node_provider',
      email,
      password: PASSWORD,
      name: 'First',
    });
    await signOutThroughMenu(page);

    await page.goto('/auth/node-provider');
    const form = page.getByRole('form', { name: 'Sign up' });
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Password').fill(PASSWORD);
    await form.getByLabel('Name').fill('Second');
    await form.getByRole('button', { name: 'Create Account' }).click();
    await toasts(page).getByText('Registration failed').waitFor();
    await toasts(page).getByText('An account with this email already exists').waitFor();
    expect(new URL(page.url()).pathname).toBe('/auth/node-provider');
  });
});

describe('sign in and sign out', () => {
  it('signing out clears browser storage, and signing back in welcomes the user', async () => {
    const email = uniqueEmail('returning');
    await signUpThroughForm(page, {
      role: 'enterprise',
      email,
      password: PASSWORD,
      organizationName: 'Initech',
    });

    await signOutThroughMenu(page);
    expect(await storage(page)).toEqual({});
    await page.goto('/jobs');
    await expectPath(page, '/auth/signin');

    await signInThroughForm(page, email, PASSWORD);
    await toasts(page).getByText('Welcome back!').waitFor();
    await toasts(page).getByText("You've successfully signed in.").waitFor();
    await expectPath(page, '/');
    expect(await navLinkNames(page)).toContain('My Jobs');
  });

  it('a wrong password shows the Sign in failed toast and stores nothing', async () => {
    const email = uniqueEmail('wrongpass');
    await signUpThroughForm(page, {
      role: 'node_provider',
      email,
      password: PASSWORD,
      name: 'Ada',
    });
    await signOutThroughMenu(page);

    await signInThroughForm(page, email, 'not the password');
    await toasts(page).getByText('Sign in failed').waitFor();
    await toasts(page).getByText('Invalid email or password').waitFor();
    expect(new URL(page.url()).pathname).toBe('/auth/signin');
    expect(await storage(page)).toEqual({});
  });

  it('the account menu shows the email and leads to Settings, which shows the real profile', async () => {
    const email = uniqueEmail('menu');
    await signUpThroughForm(page, {
      role: 'node_provider',
      email,
      password: PASSWORD,
      name: 'Katherine Johnson',
    });

    await page.getByRole('button', { name: `Account menu for ${email}` }).click();
    await page.getByRole('menuitem', { name: 'Settings' }).click();
    await expectPath(page, '/settings');
    await page.getByText('Profile Information').waitFor();
    await page.getByText('Katherine Johnson').waitFor();
    await page.getByRole('main').getByText(email).waitFor();
  });

  it('changing the password on one device signs the other one out at once, without it doing anything', async () => {
    const email = uniqueEmail('two-devices');
    await signUpThroughForm(page, {
      role: 'enterprise',
      email,
      password: PASSWORD,
      organizationName: 'Two Devices',
    });
    const other = await openPage(browser);
    try {
      await signInThroughForm(other.page, email, PASSWORD);
      await expectPath(other.page, '/');
      await other.page.getByRole('heading', { name: 'Two Devices' }).waitFor();

      await page.goto('/settings');
      const form = page.getByRole('form', { name: 'Change password' });
      await form.getByLabel('Current Password').fill(PASSWORD);
      await form.getByLabel('New Password').fill('a brand new passphrase');
      await form.getByLabel('Confirm Password').fill('a brand new passphrase');
      await form.getByRole('button', { name: 'Change password' }).click();
      await toasts(page).getByText('Password changed').waitFor();

      // The other device's live stream ends with its sign-in; reconnecting is refused, so it
      // lands on sign-in with its storage cleared. This device stays signed in.
      await expectPath(other.page, '/auth/signin');
      expect(await storage(other.page)).toEqual({});
      await page.reload();
      await page.getByText('Profile Information').waitFor();
      expect(new URL(page.url()).pathname).toBe('/settings');
    } finally {
      await other.context.close();
    }
  });

  it('takes the role from the server when the stored one is wrong', async () => {
    const email = uniqueEmail('rolefix');
    await signUpThroughForm(page, {
      role: 'enterprise',
      email,
      password: PASSWORD,
      organizationName: 'Umbrella',
    });
    await page.evaluate(() => localStorage.setItem('fabric_user_role', 'node_provider'));
    await page.reload();
    await page.waitForFunction(() => localStorage.getItem('fabric_user_role') === 'enterprise');
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'My Jobs' })
      .waitFor();
  });
});

describe('routes', () => {
  it('protected pages send a visitor without a token to sign-in', async () => {
    for (const pathname of [
      '/',
      '/team',
      '/nodes',
      '/jobs/submit',
      '/billing',
      '/settings',
      '/notifications',
    ]) {
      await page.goto(pathname);
      await expectPath(page, '/auth/signin');
    }
  });

  it('an unknown path shows the 404 page with a way home', async () => {
    await page.goto('/no/such/page');
    await page.getByRole('heading', { name: '404' }).waitFor();
    await page.getByText('Oops! Page not found').waitFor();
    await page.getByRole('link', { name: 'Return to Home' }).click();
    // Home is protected: without an account it leads on to sign-in.
    await expectPath(page, '/auth/signin');
  });

  it('a node provider opening the submit page is sent to the dashboard', async () => {
    await signUpThroughForm(page, {
      role: 'node_provider',
      email: uniqueEmail('nosubmit'),
      password: PASSWORD,
      name: 'Linus',
    });
    await page.goto('/jobs/submit');
    await expectPath(page, '/');
  });

  it('/team shows the same dashboard as /', async () => {
    await signUpThroughForm(page, {
      role: 'enterprise',
      email: uniqueEmail('team'),
      password: PASSWORD,
      organizationName: 'Team Co',
    });
    await page.goto('/team');
    await page.getByRole('heading', { name: 'Team Co' }).waitFor();
  });
});

describe('legal pages', () => {
  const today = new Intl.DateTimeFormat('en-US', {
    month: 'long',
    day: 'numeric',
    year: 'numeric',
  }).format(new Date());

  it('terms have 8 sections, today as last-updated date, and a Back button', async () => {
    await page.goto('/auth/signin');
    await page.getByRole('link', { name: /terms/i }).first().click();
    await expectPath(page, '/terms');
    await page.getByRole('heading', { name: 'Terms of Service' }).waitFor();
    expect(await page.getByRole('main').getByRole('heading', { level: 2 }).count()).toBe(8);
    await page.getByText(`Last updated: ${today}`).waitFor();
    await page.getByRole('button', { name: 'Back' }).click();
    await expectPath(page, '/auth/signin');
  });

  it('privacy has 10 sections and today as last-updated date', async () => {
    await page.goto('/privacy');
    await page.getByRole('heading', { name: 'Privacy Policy' }).waitFor();
    expect(await page.getByRole('main').getByRole('heading', { level: 2 }).count()).toBe(10);
    await page.getByText(`Last updated: ${today}`).waitFor();
  });
});
