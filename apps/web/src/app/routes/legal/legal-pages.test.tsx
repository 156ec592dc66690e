import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiPaths } from '@fabric/contract';
import { jsonResponse, stubFetch } from '@/testing/fetch-stub';
import { providerUser, storeSession } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';

describe('legal pages', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 10, 22, 9, 30));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each([
    ['/terms', 'Terms of Service', 8],
    ['/privacy', 'Privacy Policy', 10],
  ])('%s shows %s in %i numbered sections, last updated today', async (path, title, count) => {
    renderApp(path);

    const heading = await screen.findByRole('heading', { level: 1, name: title });
    const article = heading.closest('article');
    if (!article) throw new Error('the page has no article');
    const sections = within(article).getAllByRole('heading', { level: 2 });
    expect(sections).toHaveLength(count);
    sections.forEach((section, index) => {
      expect(section.textContent).toMatch(new RegExp(`^${index + 1}\\. \\S`));
    });
    expect(screen.getByText('Last updated: November 22, 2026')).toBeInTheDocument();
  });

  it('goes home from Back when the legal page was opened directly', async () => {
    storeSession();
    stubFetch().on(`GET ${apiPaths.auth.me}`, () => jsonResponse(200, providerUser));
    const { router, user } = renderApp('/terms');

    await user.click(await screen.findByRole('button', { name: 'Back' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it('returns to the previous page from Back', async () => {
    const { router, user } = renderApp('/auth/signup');

    await user.click(await screen.findByRole('link', { name: 'Privacy Policy' }));
    await user.click(await screen.findByRole('button', { name: 'Back' }));

    expect(await screen.findByRole('tab', { name: 'Sign Up', selected: true })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth/signup');
  });
});
