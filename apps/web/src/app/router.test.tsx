import { apiPaths } from '@fabric/contract';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, stubFetch } from '@/testing/fetch-stub';
import { enterpriseUser, providerUser, storeSession } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';

const ME = `GET ${apiPaths.auth.me}`;

const protectedPaths = [
  '/',
  '/team',
  '/nodes',
  '/nodes/0b7f6f0e-node',
  '/jobs',
  '/jobs/submit',
  '/jobs/5d1c2a9e-job',
  '/billing',
  '/settings',
  '/notifications',
];

describe('route table', () => {
  it.each(protectedPaths)(
    'sends a visitor without an access token from %s to /auth/signin',
    async (path) => {
      stubFetch();
      const { router } = renderApp(path);

      expect(
        await screen.findByRole('tab', { name: 'Sign In', selected: true }),
      ).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/auth/signin');
    },
  );

  it('shows the 404 page for an unknown path, with a link home', async () => {
    renderApp('/no/such/page');

    expect(await screen.findByRole('heading', { level: 1, name: '404' })).toBeInTheDocument();
    expect(screen.getByText('Oops! Page not found')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
  });

  it('shows the 404 page for an /auth/ segment that is not a role', async () => {
    renderApp('/auth/admin');

    expect(await screen.findByRole('heading', { level: 1, name: '404' })).toBeInTheDocument();
  });

  it('opens the Sign In tab on /auth/signin and the Sign Up tab on /auth/signup', async () => {
    const first = renderApp('/auth/signin');
    expect(await screen.findByRole('tab', { name: 'Sign In', selected: true })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    first.unmount();

    renderApp('/auth/signup');
    expect(await screen.findByRole('tab', { name: 'Sign Up', selected: true })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Share my compute' })).toBeChecked();
  });

  it('opens Sign Up with the enterprise role chosen on /auth/enterprise', async () => {
    renderApp('/auth/enterprise');

    expect(await screen.findByRole('tab', { name: 'Sign Up', selected: true })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Run AI workloads' })).toBeChecked();
    expect(screen.getByLabelText('Organization Name')).toBeInTheDocument();
    expect(screen.getByLabelText('Domain')).toBeInTheDocument();
    expect(screen.getByLabelText('Industry')).toBeInTheDocument();
  });

  it('opens Sign Up with the provider role chosen on /auth/node-provider', async () => {
    renderApp('/auth/node-provider');

    expect(await screen.findByRole('radio', { name: 'Share my compute' })).toBeChecked();
    expect(screen.getByLabelText('Name')).toBeInTheDocument();
  });

  it('keeps the URL in step with the chosen tab and keeps focus on the tab', async () => {
    const { router, user } = renderApp('/auth/signin');
    const signUpTab = await screen.findByRole('tab', { name: 'Sign Up' });

    await user.click(signUpTab);

    expect(await screen.findByRole('tab', { name: 'Sign Up', selected: true })).toHaveFocus();
    expect(router.state.location.pathname).toBe('/auth/signup');
    expect(screen.getByRole('button', { name: 'Create Account' })).toBeInTheDocument();
  });

  it('goes to the dashboard after signing in', async () => {
    stubFetch()
      .on(`POST ${apiPaths.auth.login}`, () =>
        jsonResponse(200, {
          access_token: 'access-1',
          refresh_token: 'refresh-1',
          token_type: 'Bearer',
          expires_in: 900,
          user_id: providerUser.id,
          email: providerUser.email,
          role: 'node_provider',
        }),
      )
      .on(ME, () => jsonResponse(200, providerUser));
    const { router, user } = renderApp('/auth/signin');

    await user.type(await screen.findByLabelText('Email'), providerUser.email);
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it.each(['/terms', '/privacy'])('shows %s without an access token', async (path) => {
    const { router } = renderApp(path);

    expect(await screen.findByRole('button', { name: 'Back' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(path);
  });

  it('sends a node provider who opens /jobs/submit to the dashboard', async () => {
    storeSession({ role: 'node_provider' });
    stubFetch().on(ME, () => jsonResponse(200, providerUser));
    const { router } = renderApp('/jobs/submit');

    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it('lets an enterprise open Submit New Job', async () => {
    storeSession({ role: 'enterprise', email: enterpriseUser.email });
    stubFetch().on(ME, () => jsonResponse(200, enterpriseUser));
    renderApp('/jobs/submit');

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Submit New Job' }),
    ).toBeInTheDocument();
  });

  it('shows the same dashboard on /team as on /', async () => {
    storeSession({ role: 'enterprise', email: enterpriseUser.email });
    stubFetch().on(ME, () => jsonResponse(200, enterpriseUser));
    renderApp('/team');

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Acme Research' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Submit New Job' })).toHaveAttribute(
      'href',
      '/jobs/submit',
    );
    expect(screen.getByRole('link', { name: 'View All Jobs' })).toHaveAttribute('href', '/jobs');
  });

  it.each([
    ['node_provider', 'Earnings'],
    ['enterprise', 'Billing & Credits'],
  ] as const)('titles /billing for a %s as %s', async (role, title) => {
    const me = role === 'enterprise' ? enterpriseUser : providerUser;
    storeSession({ role, email: me.email });
    stubFetch().on(ME, () => jsonResponse(200, me));
    renderApp('/billing');

    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
  });

  it.each([
    ['/nodes', 'My Nodes'],
    ['/jobs', 'My Jobs'],
    ['/settings', 'Settings'],
    ['/notifications', 'Notifications'],
  ])('titles %s as %s', async (path, title) => {
    storeSession();
    stubFetch().on(ME, () => jsonResponse(200, providerUser));
    renderApp(path);

    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    await waitFor(() => {
      expect(document.title).toBe(`${title} · Fabric`);
    });
  });

  it("shows the spec's empty state on /notifications when the user has none", async () => {
    storeSession();
    stubFetch()
      .on(ME, () => jsonResponse(200, providerUser))
      .on(`GET ${apiPaths.notifications.list}`, () =>
        jsonResponse(200, { notifications: [], unread: 0, page: 1, page_size: 20, total: 0 }),
      )
      .on(`GET ${apiPaths.notifications.unreadCount}`, () => jsonResponse(200, { unread: 0 }));
    renderApp('/notifications');

    expect(await screen.findByText('No notifications yet')).toBeInTheDocument();
  });
});
