import { apiPaths, STORAGE_KEYS } from '@fabric/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, stubFetch } from '@/testing/fetch-stub';
import { enterpriseUser, providerUser, storeSession } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';

const ME = `GET ${apiPaths.auth.me}`;
const LOGOUT = `POST ${apiPaths.auth.logout}`;
const UNREAD_COUNT = `GET ${apiPaths.notifications.unreadCount}`;

function navLinks() {
  const nav = screen.getByRole('navigation', { name: 'Main' });
  return within(nav)
    .getAllByRole('link')
    .map((link) => [link.textContent, link.getAttribute('href')]);
}

describe('signed-in layout', () => {
  it('shows a node provider Dashboard, My Nodes, Earnings and Notifications', async () => {
    storeSession({ role: 'node_provider' });
    stubFetch().on(ME, () => jsonResponse(200, providerUser));
    renderApp('/nodes');

    await screen.findByRole('heading', { level: 1, name: 'My Nodes' });
    expect(navLinks()).toEqual([
      ['Dashboard', '/'],
      ['My Nodes', '/nodes'],
      ['Earnings', '/billing'],
      ['Notifications', '/notifications'],
    ]);
  });

  it('shows an enterprise Dashboard, My Jobs, Billing and Notifications', async () => {
    storeSession({ role: 'enterprise', email: enterpriseUser.email });
    stubFetch().on(ME, () => jsonResponse(200, enterpriseUser));
    renderApp('/jobs');

    await screen.findByRole('heading', { level: 1, name: 'My Jobs' });
    expect(navLinks()).toEqual([
      ['Dashboard', '/'],
      ['My Jobs', '/jobs'],
      ['Billing', '/billing'],
      ['Notifications', '/notifications'],
    ]);
  });

  it('marks only the current page in the nav with aria-current', async () => {
    storeSession({ role: 'enterprise', email: enterpriseUser.email });
    stubFetch().on(ME, () => jsonResponse(200, enterpriseUser));
    renderApp('/jobs/5d1c2a9e-job');

    await screen.findByRole('heading', { level: 1, name: 'Job Details' });
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'My Jobs' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute(
      'aria-current',
    );
  });

  it('has header, navigation and main landmarks', async () => {
    storeSession();
    stubFetch().on(ME, () => jsonResponse(200, providerUser));
    renderApp('/');

    await screen.findByRole('heading', { level: 1, name: 'Dashboard' });
    expect(screen.getByRole('banner')).toHaveTextContent('Fabric');
    expect(screen.getByRole('banner')).toHaveTextContent('Distributed compute marketplace');
    expect(screen.getByRole('main')).toBeInTheDocument();
  });

  it('follows the role of /api/auth/me when it differs from the stored one', async () => {
    storeSession({ role: 'node_provider', email: enterpriseUser.email });
    stubFetch().on(ME, () => jsonResponse(200, enterpriseUser));
    renderApp('/');

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Acme Research' }),
    ).toBeInTheDocument();
    expect(localStorage.getItem(STORAGE_KEYS.userRole)).toBe('enterprise');
    expect(screen.getByRole('link', { name: 'My Jobs' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'My Nodes' })).not.toBeInTheDocument();
  });

  it('shows the email from /api/auth/me in the account menu, with Settings, Billing and Sign Out', async () => {
    storeSession({ email: 'stale@example.com' });
    stubFetch().on(ME, () => jsonResponse(200, providerUser));
    const { user } = renderApp('/');

    const trigger = await screen.findByRole('button', {
      name: 'Account menu for ada@example.com',
    });
    await user.click(trigger);

    const menu = await screen.findByRole('menu');
    expect(menu).toHaveTextContent('ada@example.com');
    expect(menu).toHaveTextContent('Node Provider');
    expect(within(menu).getByRole('menuitem', { name: 'Settings' })).toHaveAttribute(
      'href',
      '/settings',
    );
    expect(within(menu).getByRole('menuitem', { name: 'Billing' })).toHaveAttribute(
      'href',
      '/billing',
    );
    expect(within(menu).getByRole('menuitem', { name: 'Sign Out' })).toBeInTheDocument();
  });

  it('falls back to the stored email, then to the role, when the user cannot be loaded', async () => {
    storeSession({ role: 'enterprise', email: 'stored@acme.test' });
    stubFetch().on(ME, () => jsonResponse(500, { message: 'Internal error' }));
    const first = renderApp('/notifications');
    expect(
      await screen.findByRole('button', { name: 'Account menu for stored@acme.test' }),
    ).toBeInTheDocument();
    first.unmount();

    localStorage.removeItem(STORAGE_KEYS.userEmail);
    renderApp('/notifications');
    expect(
      await screen.findByRole('button', { name: 'Account menu for Enterprise' }),
    ).toBeInTheDocument();
  });

  it('signs out: revokes the refresh token, clears all storage and goes to sign-in', async () => {
    storeSession({ refreshToken: 'refresh-to-revoke' });
    sessionStorage.setItem('anything', 'kept by the app');
    const network = stubFetch()
      .on(ME, () => jsonResponse(200, providerUser))
      .on(LOGOUT, () => jsonResponse(200, { message: 'Signed out' }));
    const { user, router, queryClient } = renderApp('/settings');

    await user.click(await screen.findByRole('button', { name: /^Account menu for/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Sign Out' }));

    expect(await screen.findByRole('tab', { name: 'Sign In', selected: true })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth/signin');
    expect(network.callsTo(LOGOUT).map((call) => call.body)).toEqual([
      { refresh_token: 'refresh-to-revoke' },
    ]);
    expect(localStorage.length).toBe(0);
    expect(sessionStorage.length).toBe(0);
    expect(queryClient.getQueryCache().getAll()).toHaveLength(0);
  });

  it('signs out even when the server cannot be reached', async () => {
    storeSession();
    stubFetch()
      .on(ME, () => jsonResponse(200, providerUser))
      .on(LOGOUT, () => Promise.reject(new TypeError('Failed to fetch')));
    const { user, router } = renderApp('/');

    await user.click(await screen.findByRole('button', { name: /^Account menu for/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Sign Out' }));

    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/auth/signin');
    });
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
  });

  it('ends the session and shows sign-in when the token refresh is refused', async () => {
    storeSession();
    stubFetch()
      .on(ME, () => jsonResponse(401, { message: 'Session expired' }))
      .on(`POST ${apiPaths.auth.refresh}`, () => jsonResponse(401, { message: 'Revoked' }));
    const { router } = renderApp('/nodes');

    expect(await screen.findByRole('tab', { name: 'Sign In', selected: true })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth/signin');
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
  });

  it('shows the unread notification count on the Notifications nav item', async () => {
    storeSession({ role: 'node_provider' });
    stubFetch()
      .on(ME, () => jsonResponse(200, providerUser))
      .on(UNREAD_COUNT, () => jsonResponse(200, { unread: 3 }));
    renderApp('/nodes');

    const nav = await screen.findByRole('navigation', { name: 'Main' });
    const link = await within(nav).findByRole('link', { name: 'Notifications, 3 unread' });
    expect(link).toHaveAttribute('href', '/notifications');
    // One badge for the phone tab bar, one for the desktop pill; both hidden from screen readers.
    const badges = within(link).getAllByText('3');
    expect(badges).toHaveLength(2);
    for (const badge of badges) expect(badge).toHaveAttribute('aria-hidden', 'true');
  });

  it('shows no badge without unread notifications, and 99+ for many', async () => {
    storeSession({ role: 'enterprise', email: enterpriseUser.email });
    let unread = 0;
    const network = stubFetch()
      .on(ME, () => jsonResponse(200, enterpriseUser))
      .on(UNREAD_COUNT, () => jsonResponse(200, { unread }));
    renderApp('/jobs');

    await waitFor(() => {
      expect(network.callsTo(UNREAD_COUNT)).toHaveLength(1);
    });
    const link = screen.getByRole('link', { name: 'Notifications' });
    expect(link).toHaveTextContent(/^Notifications$/);

    unread = 120;
    network.sendEvent('change', {
      kind: 'notification',
      id: 'c0ffee00-0000-4000-8000-000000000001',
    });
    expect(
      await screen.findByRole('link', { name: 'Notifications, 120 unread' }),
    ).toHaveTextContent('99+');
    expect(network.callsTo(UNREAD_COUNT)).toHaveLength(2);
  });
});
