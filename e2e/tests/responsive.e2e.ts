import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, uniqueEmail } from '../support/browser.ts';
import { PASSWORD, navLinkNames, signUpThroughForm, toasts } from '../support/flows.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

describe('on a phone (375 px wide)', () => {
  it('nothing overflows sideways and the navigation stays reachable', async () => {
    const { context, page } = await openPage(browser, { width: 375, height: 740 });
    for (const pathname of ['/auth/signin', '/auth/enterprise', '/terms', '/privacy', '/missing']) {
      await page.goto(pathname);
      await page.locator('main').first().waitFor();
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      expect(overflow, pathname).toBeLessThanOrEqual(0);
    }

    await signUpThroughForm(page, {
      role: 'enterprise',
      email: uniqueEmail('phone'),
      password: PASSWORD,
      organizationName: 'Pocket',
    });
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await navLinkNames(page)).toEqual(['Dashboard', 'My Jobs', 'Billing', 'Notifications']);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Notifications' })
      .click();
    await page.waitForURL((url) => url.pathname === '/notifications');
    await context.close();
  });
});

describe('keyboard', () => {
  it('a person can sign in with the keyboard alone', async () => {
    const { context, page } = await openPage(browser);
    const email = uniqueEmail('keyboard');
    await signUpThroughForm(page, {
      role: 'node_provider',
      email,
      password: PASSWORD,
      name: 'Keys',
    });
    await page.evaluate(() => localStorage.clear());

    await page.goto('/auth/signin');
    await page.getByRole('form', { name: 'Sign in' }).getByLabel('Email').focus();
    await page.keyboard.type(email);
    // Tab on until the password field has focus (a "Forgot password?" link may come first).
    for (let step = 0; step < 5; step += 1) {
      await page.keyboard.press('Tab');
      if (
        await page.evaluate(
          () => (document.activeElement as HTMLInputElement | null)?.type === 'password',
        )
      )
        break;
    }
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await toasts(page).getByText('Welcome back!').waitFor();
    await page.waitForURL((url) => url.pathname === '/');

    // Focus is visible: the focused control draws a ring (box-shadow) or an outline.
    await page.keyboard.press('Tab');
    const focusDrawn = await page.evaluate(() => {
      const element = document.activeElement;
      if (!element || element === document.body) return false;
      const style = getComputedStyle(element);
      return (
        style.boxShadow !== 'none' ||
        (style.outlineStyle !== 'none' && style.outlineWidth !== '0px')
      );
    });
    expect(focusDrawn).toBe(true);
    await context.close();
  });
});
