import { MICRO_DOLLARS_PER_DOLLAR, providerShareMicros } from '@fabric/contract';
import type { Locator, Page } from 'playwright-core';
import type { Account } from './api.ts';

// Helpers for the money screens (tests/money-screens.e2e.ts): Billing, Settings, Notifications.

const usd = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** Dollars as the app shows them: "$1,234.50" (rounded to cents). */
export function usdText(dollars: number): string {
  return usd.format(dollars);
}

/** Whole micro-dollars of an API dollar amount (which carries at most 6 decimals). */
export function micros(dollars: number): number {
  return Math.round(dollars * MICRO_DOLLARS_PER_DOLLAR);
}

/** The provider's share of a job's charge, in dollars (80%, rounded down to the micro-dollar). */
export function providerShareOf(costDollars: number): number {
  return providerShareMicros(micros(costDollars)) / MICRO_DOLLARS_PER_DOLLAR;
}

function exactly(text: string): RegExp {
  return new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
}

/** A summary card (Credit Balance, Pending Earnings, ...) by its title. */
export function statCard(scope: Page | Locator, title: string): Locator {
  return scope.getByRole('region', { name: title, exact: true });
}

/** Waits until the card's figure reads exactly `value` (e.g. "$25.00"). */
export async function waitForStat(
  scope: Page | Locator,
  title: string,
  value: string,
  timeout?: number,
): Promise<void> {
  await statCard(scope, title)
    .getByTestId('stat-value')
    .filter({ hasText: exactly(value) })
    .waitFor(timeout === undefined ? {} : { timeout });
}

/** The Transaction History card of Billing. */
export function transactionHistory(page: Page): Locator {
  return page.getByRole('region', { name: 'Transaction History' });
}

/** The history rows whose description contains `description`. */
export function transactionRows(page: Page, description: string | RegExp): Locator {
  return transactionHistory(page)
    .getByRole('row')
    .filter({ has: page.getByRole('cell').filter({ hasText: description }) });
}

/** The amount shown in a history row: its text and whether it is drawn as money in or out. */
export async function rowAmount(row: Locator): Promise<{ text: string; color: 'in' | 'out' }> {
  const amount = row.getByTestId('transaction-amount');
  const text = (await amount.innerText()).trim();
  const className = (await amount.getAttribute('class')) ?? '';
  if (className.includes('text-success')) return { text, color: 'in' };
  if (className.includes('text-destructive')) return { text, color: 'out' };
  throw new Error(`the amount ${text} is neither green nor red: ${className}`);
}

/** The signed-in account of `page` as the API client knows it (its stored access token). */
export async function accountInPage(page: Page, email: string, password: string): Promise<Account> {
  const stored = await page.evaluate(() => ({
    token: localStorage.getItem('fabric_access_token') ?? '',
  }));
  if (!stored.token) throw new Error('the page holds no access token');
  return { email, password, token: stored.token, userId: '' };
}
