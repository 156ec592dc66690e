import { apiPaths } from '@fabric/contract';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, stubFetch } from '@/testing/fetch-stub';
import { renderApp } from '@/testing/render-app';

const FORGOT = `POST ${apiPaths.auth.forgotPassword}`;
const RESET = `POST ${apiPaths.auth.resetPassword}`;

describe('password reset', () => {
  it("is reached from the Sign In tab's 'Forgot password?' link", async () => {
    const { user, router } = renderApp('/auth/signin');

    await user.click(await screen.findByRole('link', { name: 'Forgot password?' }));

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Forgot your password?' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth/forgot-password');
  });

  it('asks for the email and answers neutrally once the request is sent', async () => {
    const network = stubFetch().on(FORGOT, () =>
      jsonResponse(200, { message: 'If the account exists, an email was sent' }),
    );
    const { user } = renderApp('/auth/forgot-password');

    await user.click(await screen.findByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    expect(network.calls).toHaveLength(0);

    await user.type(screen.getByLabelText('Email'), 'Ada@Example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));

    expect(
      await screen.findByText('If an account exists for that email, a reset link is on its way.'),
    ).toBeInTheDocument();
    expect(network.callsTo(FORGOT).map((call) => call.body)).toEqual([
      { email: 'ada@example.com' },
    ]);
    expect(network.callsTo(FORGOT)[0]?.headers.has('Authorization')).toBe(false);
  });

  it('sets the new password with the token of the link, confirms it and goes to sign-in', async () => {
    const network = stubFetch().on(RESET, () => jsonResponse(200, { message: 'Password reset' }));
    const { user, router } = renderApp('/auth/reset-password?token=reset-token-123');

    await user.type(await screen.findByLabelText('New Password'), 'brand new pass');
    await user.type(screen.getByLabelText('Confirm Password'), 'brand new pass');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));

    expect(await screen.findByText('Password updated')).toBeInTheDocument();
    expect(network.callsTo(RESET).map((call) => call.body)).toEqual([
      { token: 'reset-token-123', new_password: 'brand new pass' },
    ]);
    expect(router.state.location.pathname).toBe('/auth/signin');
  });

  it('checks the new password and its confirmation before calling the API', async () => {
    const network = stubFetch();
    const { user } = renderApp('/auth/reset-password?token=t');

    await user.type(await screen.findByLabelText('New Password'), 'short');
    await user.type(screen.getByLabelText('Confirm Password'), 'other');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));

    expect(await screen.findByText('Password must be at least 8 characters')).toBeInTheDocument();
    expect(screen.getByText('Passwords do not match')).toBeInTheDocument();
    expect(network.calls).toHaveLength(0);
  });

  it("shows the server's reason when the link is no longer valid", async () => {
    stubFetch().on(RESET, () =>
      jsonResponse(400, { message: 'This reset link has expired', code: 'INVALID_TOKEN' }),
    );
    const { user, router } = renderApp('/auth/reset-password?token=old');

    await user.type(await screen.findByLabelText('New Password'), 'brand new pass');
    await user.type(screen.getByLabelText('Confirm Password'), 'brand new pass');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));

    expect(await screen.findByText('This reset link has expired')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth/reset-password');
  });

  it('explains a link without a token instead of showing the form', async () => {
    renderApp('/auth/reset-password');

    expect(await screen.findByText('This link is incomplete')).toBeInTheDocument();
    expect(screen.queryByLabelText('New Password')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'request a new reset link' })).toHaveAttribute(
      'href',
      '/auth/forgot-password',
    );
  });
});
