import {
  apiPaths,
  STORAGE_KEYS,
  type ConnectStatusResponse,
  type UserSettings,
} from '@fabric/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, stubFetch } from '@/testing/fetch-stub';
import { enterpriseUser, providerUser, storeSession } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';

const ME = `GET ${apiPaths.auth.me}`;
const PROFILE = `PUT ${apiPaths.auth.profile}`;
const PASSWORD = `PUT ${apiPaths.auth.password}`;
const GET_SETTINGS = `GET ${apiPaths.settings}`;
const PUT_SETTINGS = `PUT ${apiPaths.settings}`;
const CONNECT_STATUS = `GET ${apiPaths.payment.connectStatus}`;
const CONNECT_ONBOARD = `GET ${apiPaths.payment.connectOnboard}`;
const CONNECT_REFRESH = `POST ${apiPaths.payment.connectRefresh}`;
const DELETE_ACCOUNT = `DELETE ${apiPaths.auth.account}`;

const savedSettings: UserSettings = {
  email_notifications: true,
  job_notifications: true,
  credit_low_alerts: true,
  marketing_emails: false,
  minimum_payout: 50,
};

const notConnected: ConnectStatusResponse = {
  connected: false,
  payouts_enabled: false,
  requirements: { currently_due: [] },
};

/** The network of the settings page; the server keeps what a PUT saves, as the real one does. */
function stubServer({
  settings = savedSettings,
  status = notConnected,
}: { settings?: UserSettings; status?: ConnectStatusResponse } = {}) {
  let current = settings;
  return stubFetch()
    .on(GET_SETTINGS, () => jsonResponse(200, current))
    .on(PUT_SETTINGS, (call) => {
      current = { ...current, ...(call.body as Partial<UserSettings>) };
      return jsonResponse(200, current);
    })
    .on(CONNECT_STATUS, () => jsonResponse(200, status));
}

/** A signed-in provider (or enterprise) whose settings and bank status the server answers. */
function stubSettingsPage({
  role = 'node_provider',
  settings = savedSettings,
  status = notConnected,
}: {
  role?: 'node_provider' | 'enterprise';
  settings?: UserSettings;
  status?: ConnectStatusResponse;
} = {}) {
  const user = role === 'node_provider' ? providerUser : enterpriseUser;
  storeSession({ role, email: user.email });
  return stubServer({ settings, status }).on(ME, () => jsonResponse(200, user));
}

/** Lets the next call to the handler wait until the test resolves it. */
function deferred() {
  let resolve: (response: Response) => void = () => undefined;
  const promise = new Promise<Response>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

function stubLocationAssign() {
  const assign = vi.fn();
  vi.stubGlobal('location', { href: window.location.href, origin: window.location.origin, assign });
  return assign;
}

async function cardTitled(title: string) {
  const heading = await screen.findByRole('heading', { name: title });
  const card = heading.closest<HTMLElement>('[data-slot="card"]');
  if (!card) throw new Error(`${title} is not in a card`);
  return card;
}

async function profileCard() {
  const title = await screen.findByRole('heading', { name: 'Profile Information' });
  const card = title.closest<HTMLElement>('[data-slot="card"]');
  if (!card) throw new Error('Profile Information is not in a card');
  await waitFor(() => {
    expect(within(card).queryByText('Loading')).not.toBeInTheDocument();
  });
  return card;
}

function valueOf(card: HTMLElement, label: string) {
  return within(card).getByText(label).nextElementSibling?.textContent;
}

describe('settings', () => {
  it("shows a provider's name and email from /api/auth/me, and no organization", async () => {
    storeSession();
    stubServer().on(ME, () => jsonResponse(200, providerUser));
    renderApp('/settings');

    const card = await profileCard();
    expect(valueOf(card, 'Full Name')).toBe('Ada Lovelace');
    expect(valueOf(card, 'Email')).toBe('ada@example.com');
    expect(within(card).queryByText('Organization Name')).not.toBeInTheDocument();
  });

  it("shows 'Not set' for an empty name and the organization of an enterprise", async () => {
    storeSession({ role: 'enterprise', email: enterpriseUser.email });
    stubServer().on(ME, () => jsonResponse(200, enterpriseUser));
    renderApp('/settings');

    const card = await profileCard();
    expect(valueOf(card, 'Full Name')).toBe('Not set');
    expect(valueOf(card, 'Organization Name')).toBe('Acme Research');
  });

  it('falls back to the stored email when the user cannot be loaded', async () => {
    storeSession({ email: 'stored@example.com' });
    stubServer().on(ME, () => jsonResponse(500, { message: 'Database unavailable' }));
    renderApp('/settings');

    const card = await profileCard();
    expect(valueOf(card, 'Email')).toBe('stored@example.com');
    expect(screen.getByText('Your profile could not be loaded')).toBeInTheDocument();
  });

  it('saves an edited profile with PUT /api/auth/profile and shows the updated user', async () => {
    storeSession();
    const network = stubServer()
      .on(ME, () => jsonResponse(200, providerUser))
      .on(PROFILE, () => jsonResponse(200, { ...providerUser, name: 'Ada King' }));
    const { user } = renderApp('/settings');

    const name = await screen.findByLabelText('Name');
    await user.clear(name);
    await user.type(name, 'Ada King');
    await user.click(screen.getByRole('button', { name: 'Save profile' }));

    expect(await screen.findByText('Profile updated')).toBeInTheDocument();
    expect(network.callsTo(PROFILE).map((call) => call.body)).toEqual([{ name: 'Ada King' }]);
    expect(valueOf(await profileCard(), 'Full Name')).toBe('Ada King');
    expect(screen.getByRole('button', { name: 'Save profile' })).toBeDisabled();
  });

  it('keeps the required profile fields of the role required', async () => {
    storeSession({ role: 'enterprise', email: enterpriseUser.email });
    const network = stubServer().on(ME, () => jsonResponse(200, enterpriseUser));
    const { user } = renderApp('/settings');

    await user.clear(await screen.findByLabelText('Domain'));
    await user.click(screen.getByRole('button', { name: 'Save profile' }));

    expect(await screen.findByLabelText('Domain')).toHaveAccessibleDescription(
      'Domain is required',
    );
    expect(network.callsTo(PROFILE)).toHaveLength(0);
  });

  it('checks the new password before calling the API', async () => {
    storeSession();
    const network = stubServer().on(ME, () => jsonResponse(200, providerUser));
    const { user } = renderApp('/settings');

    await user.type(await screen.findByLabelText('New Password'), 'short');
    await user.type(screen.getByLabelText('Confirm Password'), 'different');
    await user.click(screen.getByRole('button', { name: 'Change password' }));

    expect(await screen.findByText('Current password is required')).toBeInTheDocument();
    expect(screen.getByLabelText('New Password')).toHaveAccessibleDescription(
      'Password must be at least 8 characters',
    );
    expect(screen.getByLabelText('Confirm Password')).toHaveAccessibleDescription(
      'Passwords do not match',
    );
    expect(network.callsTo(PASSWORD)).toHaveLength(0);
  });

  it('changes the password with PUT /api/auth/password and clears the form', async () => {
    storeSession();
    const network = stubServer()
      .on(ME, () => jsonResponse(200, providerUser))
      .on(PASSWORD, () => jsonResponse(200, { message: 'Password changed' }));
    const { user } = renderApp('/settings');

    await user.type(await screen.findByLabelText('Current Password'), 'old password');
    await user.type(screen.getByLabelText('New Password'), 'new password 1');
    await user.type(screen.getByLabelText('Confirm Password'), 'new password 1');
    await user.click(screen.getByRole('button', { name: 'Change password' }));

    expect(await screen.findByText('Password changed')).toBeInTheDocument();
    expect(network.callsTo(PASSWORD).map((call) => call.body)).toEqual([
      { current_password: 'old password', new_password: 'new password 1' },
    ]);
    expect(screen.getByLabelText('Current Password')).toHaveValue('');
  });

  it('shows a wrong current password under that field', async () => {
    storeSession();
    stubServer()
      .on(ME, () => jsonResponse(200, providerUser))
      .on(PASSWORD, () =>
        jsonResponse(400, {
          message: 'Current password is incorrect',
          code: 'INVALID_CREDENTIALS',
          field: 'current_password',
        }),
      );
    const { user } = renderApp('/settings');

    await user.type(await screen.findByLabelText('Current Password'), 'wrong password');
    await user.type(screen.getByLabelText('New Password'), 'new password 1');
    await user.type(screen.getByLabelText('Confirm Password'), 'new password 1');
    await user.click(screen.getByRole('button', { name: 'Change password' }));

    expect(await screen.findByText('Could not change password')).toBeInTheDocument();
    expect(screen.getByLabelText('Current Password')).toHaveAccessibleDescription(
      'Current password is incorrect',
    );
  });

  describe('notification switches', () => {
    it('shows the saved switches of a provider, with what each one does', async () => {
      stubSettingsPage({ settings: { ...savedSettings, email_notifications: false } });
      renderApp('/settings');

      const email = await screen.findByRole('switch', { name: 'Email Notifications' });
      await waitFor(() => {
        expect(email).not.toBeChecked();
      });
      expect(email).toHaveAccessibleDescription(
        'Also send each notification to your email address.',
      );
      const jobs = screen.getByRole('switch', { name: 'Job Notifications' });
      expect(jobs).toBeChecked();
      expect(jobs).toHaveAccessibleDescription(
        'Notices when a job your nodes run completes or fails.',
      );
      const marketing = screen.getByRole('switch', { name: 'Marketing Emails' });
      expect(marketing).not.toBeChecked();
      expect(marketing).toHaveAccessibleDescription('Occasional product news by email.');
      expect(screen.queryByRole('switch', { name: 'Credit Low Alerts' })).not.toBeInTheDocument();
    });

    it('gives an enterprise Credit Low Alerts below $10.00, and no bank or payout cards', async () => {
      stubSettingsPage({ role: 'enterprise' });
      renderApp('/settings');

      const alerts = await screen.findByRole('switch', { name: 'Credit Low Alerts' });
      expect(alerts).toBeChecked();
      expect(alerts).toHaveAccessibleDescription(
        'A notification when your credits fall below $10.00.',
      );
      expect(screen.queryByRole('switch', { name: 'Job Notifications' })).not.toBeInTheDocument();
      expect(screen.queryByText('Bank Account Connection')).not.toBeInTheDocument();
      expect(screen.queryByText('Payout Settings')).not.toBeInTheDocument();
    });

    it('saves a flipped switch with a PUT of that field alone', async () => {
      const network = stubSettingsPage();
      const { user } = renderApp('/settings');

      const marketing = await screen.findByRole('switch', { name: 'Marketing Emails' });
      await waitFor(() => {
        expect(marketing).toBeEnabled();
      });
      await user.click(marketing);

      expect(await screen.findByText('Saved')).toBeInTheDocument();
      expect(marketing).toBeChecked();
      expect(network.callsTo(PUT_SETTINGS).map((call) => call.body)).toEqual([
        { marketing_emails: true },
      ]);
    });

    it('shows the change at once and puts the switch back when the save fails', async () => {
      const save = deferred();
      stubSettingsPage().on(PUT_SETTINGS, () => save.promise);
      const { user } = renderApp('/settings');

      const jobs = await screen.findByRole('switch', { name: 'Job Notifications' });
      await waitFor(() => {
        expect(jobs).toBeChecked();
      });
      await user.click(jobs);
      expect(jobs).not.toBeChecked();
      expect(screen.getByText('Saving...')).toBeInTheDocument();

      save.resolve(jsonResponse(500, { message: 'Settings are unavailable' }));

      expect(await screen.findByText('Could not save Job Notifications')).toBeInTheDocument();
      expect(screen.getByText('Settings are unavailable')).toBeInTheDocument();
      await waitFor(() => {
        expect(jobs).toBeChecked();
      });
    });
  });

  describe('bank account connection', () => {
    it('offers to connect when no bank account is connected, and sends the browser to onboarding', async () => {
      const assign = stubLocationAssign();
      const onboarding = deferred();
      stubSettingsPage().on(CONNECT_ONBOARD, () => onboarding.promise);
      const { user } = renderApp('/settings');

      const card = await cardTitled('Bank Account Connection');
      expect(await within(card).findByText('No bank account connected')).toBeInTheDocument();
      await user.click(within(card).getByRole('button', { name: 'Connect Bank Account' }));

      const busy = within(card).getByRole('button', { name: 'Connecting...' });
      expect(busy).toBeDisabled();
      onboarding.resolve(
        jsonResponse(200, { url: 'http://localhost/api/payment/sandbox/onboarding?t=1' }),
      );
      await waitFor(() => {
        expect(assign).toHaveBeenCalledWith('http://localhost/api/payment/sandbox/onboarding?t=1');
      });
      // Still busy while the browser leaves.
      expect(within(card).getByRole('button', { name: 'Connecting...' })).toBeDisabled();
    });

    it("shows the server's message, else 'Failed to connect Stripe', when connecting fails", async () => {
      let message: string | undefined = 'Payouts are not available in your country';
      stubSettingsPage().on(CONNECT_ONBOARD, () =>
        jsonResponse(502, message === undefined ? {} : { message }),
      );
      const { user } = renderApp('/settings');

      const connect = await screen.findByRole('button', { name: 'Connect Bank Account' });
      await user.click(connect);
      expect(
        await screen.findByText('Payouts are not available in your country'),
      ).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Connect Bank Account' })).toBeEnabled();

      message = undefined;
      await user.click(screen.getByRole('button', { name: 'Connect Bank Account' }));
      expect(await screen.findByText('Failed to connect Stripe')).toBeInTheDocument();
    });

    it('lists what is missing when setup is incomplete, and Complete Setup opens a fresh link', async () => {
      const assign = stubLocationAssign();
      const link = deferred();
      const network = stubSettingsPage({
        status: {
          connected: true,
          payouts_enabled: false,
          requirements: {
            currently_due: [
              'external_account',
              'tos_acceptance.date',
              'tos_acceptance.ip',
              'payout_schedule.interval',
            ],
          },
        },
      }).on(CONNECT_REFRESH, () => link.promise);
      const { user } = renderApp('/settings');

      const card = await cardTitled('Bank Account Connection');
      const alert = await within(card).findByRole('alert');
      expect(alert).toHaveTextContent('Setup Incomplete');
      expect(
        within(alert)
          .getAllByRole('listitem')
          .map((item) => item.textContent),
      ).toEqual([
        'Bank account for payouts',
        'Acceptance of the payment terms',
        'Payout schedule interval',
      ]);
      await user.click(within(card).getByRole('button', { name: 'Complete Setup' }));
      expect(within(card).getByRole('button', { name: 'Loading...' })).toBeDisabled();

      link.resolve(jsonResponse(200, { url: 'https://connect.example/setup' }));
      await waitFor(() => {
        expect(assign).toHaveBeenCalledWith('https://connect.example/setup');
      });
      expect(network.callsTo(CONNECT_REFRESH)).toHaveLength(1);
      expect(within(card).queryByRole('button', { name: 'Connect Bank Account' })).toBeNull();
    });

    it("falls back to 'Failed to refresh Stripe link' when Complete Setup fails", async () => {
      stubSettingsPage({
        status: { connected: true, payouts_enabled: false, requirements: { currently_due: [] } },
      }).on(CONNECT_REFRESH, () => jsonResponse(500));
      const { user } = renderApp('/settings');

      await user.click(await screen.findByRole('button', { name: 'Complete Setup' }));
      expect(await screen.findByText('Failed to refresh Stripe link')).toBeInTheDocument();
      expect(screen.queryByText('Still needed:')).not.toBeInTheDocument();
    });

    it('shows a connected account with payouts enabled, with no button', async () => {
      stubSettingsPage({
        status: { connected: true, payouts_enabled: true, requirements: { currently_due: [] } },
      });
      renderApp('/settings');

      const card = await cardTitled('Bank Account Connection');
      expect(await within(card).findByText('Bank Account Connected')).toBeInTheDocument();
      expect(within(card).queryByRole('button')).toBeNull();
    });

    it('only logs a failed status fetch and offers to connect', async () => {
      const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      stubSettingsPage().on(CONNECT_STATUS, () => jsonResponse(500, { message: 'Stripe is down' }));
      renderApp('/settings');

      expect(
        await screen.findByRole('button', { name: 'Connect Bank Account' }),
      ).toBeInTheDocument();
      await waitFor(() => {
        expect(log).toHaveBeenCalled();
      });
      expect(screen.queryByText('Stripe is down')).not.toBeInTheDocument();
    });

    it('says so on return from onboarding, cleans the address and reloads the status', async () => {
      let status = notConnected;
      const network = stubSettingsPage().on(CONNECT_STATUS, () => jsonResponse(200, status));
      const { router } = renderApp('/settings');
      expect(await screen.findByText('No bank account connected')).toBeInTheDocument();

      // Onboarding finished in the meantime; the provider's page sends the browser back here.
      status = { connected: true, payouts_enabled: true, requirements: { currently_due: [] } };
      await router.navigate('/settings?stripe_connected=true');

      expect(await screen.findByText('Stripe account connected successfully!')).toBeInTheDocument();
      await waitFor(() => {
        expect(router.state.location.pathname + router.state.location.search).toBe('/settings');
      });
      expect(router.state.historyAction).toBe('REPLACE');
      expect(await screen.findByText('Bank Account Connected')).toBeInTheDocument();
      expect(network.callsTo(CONNECT_STATUS)).toHaveLength(2);
      expect(screen.getAllByText('Stripe account connected successfully!')).toHaveLength(1);
    });

    it('says so on return for an enterprise too, without a status call', async () => {
      const network = stubSettingsPage({ role: 'enterprise' });
      const { router } = renderApp('/settings?stripe_connected=true');

      expect(await screen.findByText('Stripe account connected successfully!')).toBeInTheDocument();
      await waitFor(() => {
        expect(router.state.location.search).toBe('');
      });
      expect(network.callsTo(CONNECT_STATUS)).toHaveLength(0);
    });
  });

  describe('payout settings', () => {
    it('shows the saved minimum payout and saves a new one', async () => {
      const network = stubSettingsPage({ settings: { ...savedSettings, minimum_payout: 75.5 } });
      const { user } = renderApp('/settings');

      const amount = await screen.findByLabelText('Minimum Payout Amount');
      expect(amount).toHaveValue(75.5);
      expect(amount).toHaveAttribute('type', 'number');
      expect(amount).toHaveAttribute('min', '1');
      expect(amount).toHaveAttribute('step', '0.01');
      expect(
        screen.getByText(/paid out automatically once your available balance reaches/),
      ).toBeInTheDocument();

      await user.clear(amount);
      await user.type(amount, '120.25');
      await user.click(screen.getByRole('button', { name: 'Update Settings' }));

      expect(await screen.findByText('Payout settings updated successfully')).toBeInTheDocument();
      expect(network.callsTo(PUT_SETTINGS).map((call) => call.body)).toEqual([
        { minimum_payout: 120.25 },
      ]);
    });

    it('defaults to 50.00 and checks the amount before calling the API', async () => {
      const network = stubSettingsPage();
      const { user } = renderApp('/settings');

      const amount = await screen.findByLabelText('Minimum Payout Amount');
      expect(amount).toHaveValue(50);
      await user.clear(amount);
      await user.type(amount, '0.5');
      await user.click(screen.getByRole('button', { name: 'Update Settings' }));

      expect(amount).toHaveAccessibleDescription('Minimum payout must be at least $1.00');
      expect(network.callsTo(PUT_SETTINGS)).toHaveLength(0);
    });

    it("shows the server's field error under the amount", async () => {
      stubSettingsPage().on(PUT_SETTINGS, () =>
        jsonResponse(400, {
          message: 'minimum_payout must be at most 1000000.00',
          code: 'VALIDATION_ERROR',
          field: 'minimum_payout',
        }),
      );
      const { user } = renderApp('/settings');

      const amount = await screen.findByLabelText('Minimum Payout Amount');
      await user.clear(amount);
      await user.type(amount, '2000000');
      await user.click(screen.getByRole('button', { name: 'Update Settings' }));

      await waitFor(() => {
        expect(amount).toHaveAccessibleDescription('minimum_payout must be at most 1000000.00');
      });
      expect(screen.queryByText('Payout settings updated successfully')).not.toBeInTheDocument();
    });
  });

  describe('delete account', () => {
    it('explains what happens and asks for the password and the word DELETE', async () => {
      const network = stubSettingsPage();
      const { user } = renderApp('/settings');

      await user.click(await screen.findByRole('button', { name: 'Delete Account' }));
      const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' });
      expect(dialog).toHaveTextContent('cancels your queued and running jobs');
      expect(dialog).toHaveTextContent('unenrolls your nodes');
      expect(dialog).toHaveTextContent('kept as unclaimed funds; contact support');
      expect(dialog).toHaveTextContent('This cannot be undone.');

      await user.type(within(dialog).getByLabelText('Type DELETE to confirm'), 'delete');
      await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));

      expect(within(dialog).getByLabelText('Current Password')).toHaveAccessibleDescription(
        'Current password is required',
      );
      expect(within(dialog).getByLabelText('Type DELETE to confirm')).toHaveAccessibleDescription(
        'Type DELETE to confirm',
      );
      expect(network.callsTo(DELETE_ACCOUNT)).toHaveLength(0);
    });

    it('shows a wrong password under the field', async () => {
      stubSettingsPage().on(DELETE_ACCOUNT, () =>
        jsonResponse(400, {
          message: 'Current password is incorrect',
          code: 'INVALID_CREDENTIALS',
          field: 'current_password',
        }),
      );
      const { user } = renderApp('/settings');

      await user.click(await screen.findByRole('button', { name: 'Delete Account' }));
      const dialog = await screen.findByRole('dialog');
      await user.type(within(dialog).getByLabelText('Current Password'), 'wrong password');
      await user.type(within(dialog).getByLabelText('Type DELETE to confirm'), 'DELETE');
      await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));

      await waitFor(() => {
        expect(within(dialog).getByLabelText('Current Password')).toHaveAccessibleDescription(
          'Current password is incorrect',
        );
      });
      expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBe('access-1');
    });

    it("closes the account, ends the session like Sign Out and shows the server's message on sign-in", async () => {
      sessionStorage.setItem('anything', 'left by the app');
      const network = stubSettingsPage().on(DELETE_ACCOUNT, () =>
        jsonResponse(200, { message: 'Your account was closed.' }),
      );
      const { user, router, queryClient } = renderApp('/settings');

      await user.click(await screen.findByRole('button', { name: 'Delete Account' }));
      const dialog = await screen.findByRole('dialog');
      await user.type(within(dialog).getByLabelText('Current Password'), 'my password 1');
      await user.type(within(dialog).getByLabelText('Type DELETE to confirm'), 'DELETE');
      await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));

      expect(await screen.findByText('Your account was closed.')).toBeInTheDocument();
      expect(
        await screen.findByRole('tab', { name: 'Sign In', selected: true }),
      ).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/auth/signin');
      expect(network.callsTo(DELETE_ACCOUNT).map((call) => call.body)).toEqual([
        { current_password: 'my password 1', confirm: 'DELETE' },
      ]);
      expect(network.callsTo(DELETE_ACCOUNT)[0]?.headers.get('Authorization')).toBe(
        'Bearer access-1',
      );
      expect(localStorage.length).toBe(0);
      expect(sessionStorage.length).toBe(0);
      expect(queryClient.getQueryCache().getAll()).toHaveLength(0);
    });
  });
});
