import { apiPaths } from '@fabric/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, stubFetch } from '@/testing/fetch-stub';
import { enterpriseUser, providerUser, storeSession } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';

const ME = `GET ${apiPaths.auth.me}`;
const PROFILE = `PUT ${apiPaths.auth.profile}`;
const PASSWORD = `PUT ${apiPaths.auth.password}`;

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
    stubFetch().on(ME, () => jsonResponse(200, providerUser));
    renderApp('/settings');

    const card = await profileCard();
    expect(valueOf(card, 'Full Name')).toBe('Ada Lovelace');
    expect(valueOf(card, 'Email')).toBe('ada@example.com');
    expect(within(card).queryByText('Organization Name')).not.toBeInTheDocument();
  });

  it("shows 'Not set' for an empty name and the organization of an enterprise", async () => {
    storeSession({ role: 'enterprise', email: enterpriseUser.email });
    stubFetch().on(ME, () => jsonResponse(200, enterpriseUser));
    renderApp('/settings');

    const card = await profileCard();
    expect(valueOf(card, 'Full Name')).toBe('Not set');
    expect(valueOf(card, 'Organization Name')).toBe('Acme Research');
  });

  it('falls back to the stored email when the user cannot be loaded', async () => {
    storeSession({ email: 'stored@example.com' });
    stubFetch().on(ME, () => jsonResponse(500, { message: 'Database unavailable' }));
    renderApp('/settings');

    const card = await profileCard();
    expect(valueOf(card, 'Email')).toBe('stored@example.com');
    expect(screen.getByText('Your profile could not be loaded')).toBeInTheDocument();
  });

  it('saves an edited profile with PUT /api/auth/profile and shows the updated user', async () => {
    storeSession();
    const network = stubFetch()
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
    const network = stubFetch().on(ME, () => jsonResponse(200, enterpriseUser));
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
    const network = stubFetch().on(ME, () => jsonResponse(200, providerUser));
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
    const network = stubFetch()
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
    stubFetch()
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
});
