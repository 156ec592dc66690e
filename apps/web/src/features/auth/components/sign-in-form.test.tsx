import { apiPaths, STORAGE_KEYS } from '@fabric/contract';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, stubFetch } from '@/testing/fetch-stub';
import { authResponseFor, enterpriseUser } from '@/testing/fixtures';
import { renderWithProviders } from '@/testing/render-app';
import { SignInForm } from './sign-in-form';

const LOGIN = `POST ${apiPaths.auth.login}`;

function renderSignIn() {
  const onSignedIn = vi.fn();
  const view = renderWithProviders(<SignInForm onSignedIn={onSignedIn} />, { url: '/auth/signin' });
  return { ...view, onSignedIn };
}

describe('sign-in form', () => {
  it('requires an email and a password before calling the API', async () => {
    const network = stubFetch();
    const { user } = renderSignIn();

    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(network.calls).toHaveLength(0);
  });

  it('rejects an email that does not look like one, marking the field invalid', async () => {
    stubFetch();
    const { user } = renderSignIn();
    const email = screen.getByLabelText('Email');

    await user.type(email, 'ada-at-example');
    await user.type(screen.getByLabelText('Password'), 'secret-password');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    const message = await screen.findByText('Email must be a valid email address');
    expect(email).toHaveAttribute('type', 'email');
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription('Email must be a valid email address');
    expect(message.id).toBe(email.getAttribute('aria-describedby'));
    expect(screen.getByLabelText('Password')).not.toHaveAttribute('aria-invalid');
  });

  it('signs in, stores the session, says welcome back and hands over', async () => {
    const auth = authResponseFor(enterpriseUser, '9');
    const network = stubFetch().on(LOGIN, () => jsonResponse(200, auth));
    const { user, onSignedIn } = renderSignIn();

    await user.type(screen.getByLabelText('Email'), 'Ops@Acme.test');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(await screen.findByText('Welcome back!')).toBeInTheDocument();
    expect(screen.getByText("You've successfully signed in.")).toBeInTheDocument();
    expect(network.callsTo(LOGIN)[0]?.body).toEqual({
      email: 'ops@acme.test',
      password: 'correct horse',
    });
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBe('access-9');
    expect(localStorage.getItem(STORAGE_KEYS.refreshToken)).toBe('refresh-9');
    expect(localStorage.getItem(STORAGE_KEYS.userId)).toBe(enterpriseUser.id);
    expect(localStorage.getItem(STORAGE_KEYS.userEmail)).toBe(enterpriseUser.email);
    expect(localStorage.getItem(STORAGE_KEYS.userRole)).toBe('enterprise');
    expect(onSignedIn).toHaveBeenCalledTimes(1);
  });

  it("shows 'Sign in failed' with the server's message", async () => {
    stubFetch().on(LOGIN, () => jsonResponse(401, { message: 'Invalid email or password' }));
    const { user, onSignedIn } = renderSignIn();

    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(await screen.findByText('Sign in failed')).toBeInTheDocument();
    expect(screen.getByText('Invalid email or password')).toBeInTheDocument();
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
    expect(onSignedIn).not.toHaveBeenCalled();
  });

  it('falls back to the invalid-credentials text when the server gives no message', async () => {
    stubFetch().on(LOGIN, () => new Response(null, { status: 500 }));
    const { user } = renderSignIn();

    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'whatever');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(await screen.findByText('Invalid credentials. Please try again.')).toBeInTheDocument();
  });

  it('disables the submit button and shows progress while signing in', async () => {
    let answer: (response: Response) => void = () => undefined;
    stubFetch().on(
      LOGIN,
      () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    );
    const { user } = renderSignIn();

    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    const pending = await screen.findByRole('button', { name: 'Signing in…' });
    expect(pending).toBeDisabled();
    answer(jsonResponse(401, { message: 'Invalid email or password' }));
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeEnabled();
  });

  it('links to the legal pages and to password recovery', () => {
    renderSignIn();

    expect(screen.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute(
      'href',
      '/terms',
    );
    expect(screen.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute(
      'href',
      '/privacy',
    );
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute(
      'href',
      '/auth/forgot-password',
    );
  });
});
