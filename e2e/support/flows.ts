import { expect } from 'vitest';
import type { Page } from 'playwright-core';

export const PASSWORD = 'correct horse battery';

export interface ProviderAccount {
  role: 'node_provider';
  email: string;
  password: string;
  name: string;
}
export interface EnterpriseAccount {
  role: 'enterprise';
  email: string;
  password: string;
  organizationName: string;
}

/** Fills and sends the Sign Up tab of /auth/node-provider or /auth/enterprise, as a person would. */
export async function signUpThroughForm(page: Page, account: ProviderAccount | EnterpriseAccount) {
  await page.goto(account.role === 'enterprise' ? '/auth/enterprise' : '/auth/node-provider');
  const form = page.getByRole('form', { name: 'Sign up' });
  await form.getByLabel('Email').fill(account.email);
  await form.getByLabel('Password').fill(account.password);
  if (account.role === 'enterprise') {
    await form.getByLabel('Organization Name').fill(account.organizationName);
    await form.getByLabel('Domain').fill('example.com');
    await form.getByLabel('Industry').fill('Biotech');
  } else {
    await form.getByLabel('Name').fill(account.name);
  }
  await form.getByRole('button', { name: 'Create Account' }).click();
  await toasts(page).getByText('Account created!').waitFor();
  await page.waitForURL((url) => url.pathname === '/');
}

export async function signInThroughForm(page: Page, email: string, password: string) {
  await page.goto('/auth/signin');
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password').fill(password);
  await form.getByRole('button', { name: 'Sign In', exact: true }).click();
}

export async function signOutThroughMenu(page: Page) {
  await page.getByRole('button', { name: /^Account menu for / }).click();
  await page.getByRole('menuitem', { name: 'Sign Out' }).click();
  await page.waitForURL((url) => url.pathname === '/auth/signin');
}

/** The toaster region: toasts are read there so a field error with the same words does not match. */
export function toasts(page: Page) {
  return page.locator('[data-sonner-toaster]');
}

export async function storage(page: Page): Promise<Record<string, string>> {
  return page.evaluate(() => {
    const entries: Record<string, string> = {};
    for (let index = 0; index < localStorage.length; index += 1) {
      const key = localStorage.key(index);
      if (key !== null) entries[key] = localStorage.getItem(key) ?? '';
    }
    return entries;
  });
}

export async function navLinkNames(page: Page): Promise<string[]> {
  const links = page.getByRole('navigation', { name: 'Main' }).getByRole('link');
  // allInnerTexts does not wait: let the signed-in layout render first (its links come at once).
  await links.first().waitFor();
  const names = await links.allInnerTexts();
  return names.map((name) => name.trim());
}

export async function expectPath(page: Page, pathname: string) {
  await page.waitForURL((url) => url.pathname === pathname);
  expect(new URL(page.url()).pathname).toBe(pathname);
}

/**
 * Buys credits for the signed-in enterprise of `page` through the API with its stored token (the
 * sandbox grants them at once); the Billing screen's own flow is tested in billing tests.
 */
export async function addCreditsInPage(page: Page, amount: number): Promise<void> {
  const status = await page.evaluate(async (dollars) => {
    const response = await fetch('/api/payment/add-credits', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${localStorage.getItem('fabric_access_token') ?? ''}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ amount: dollars }),
    });
    return response.status;
  }, amount);
  if (status !== 200) throw new Error(`Adding credits answered ${String(status)}`);
}
