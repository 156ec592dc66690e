import { apiPaths, STORAGE_KEYS } from '@fabric/contract';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, stubFetch } from '@/testing/fetch-stub';
import { authResponseFor, enterpriseUser, providerUser } from '@/testing/fixtures';
import { renderWithProviders } from '@/testing/render-app';
import { SignUpForm } from './sign-up-form';

const REGISTER = `POST ${apiPaths.auth.register}`;

function renderSignUp(initialRole: 'node_provider' | 'enterprise' = 'node_provider') {
  const onSignedUp = vi.fn();
  const view = renderWithProviders(
    <SignUpForm initialRole={initialRole} onSignedUp={onSignedUp} />,
    { url: '/auth/signup' },
  );
  return { ...view, onSignedUp };
}

describe('sign-up form', () => {
  it('offers the two roles as a radio group, with the given role chosen', () => {
    renderSignUp('enterprise');

    const group = screen.getByRole('radiogroup', { name: 'I want to' });
    expect(group).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Share my compute' })).not.toBeChecked();
    expect(screen.getByRole('radio', { name: 'Run AI workloads' })).toBeChecked();
  });

  it('requires email, password and name from a node provider', async () => {
    const network = stubFetch();
    const { user } = renderSignUp();

    expect(screen.queryByLabelText('Organization Name')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create Account' }));

    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveAccessibleDescription('Name is required');
    expect(network.calls).toHaveLength(0);
  });

  it('requires organization name, domain and industry from an enterprise, and no name', async () => {
    const network = stubFetch();
    const { user } = renderSignUp();

    await user.click(screen.getByRole('radio', { name: 'Run AI workloads' }));
    expect(screen.queryByLabelText('Name')).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Email'), 'ops@acme.test');
    await user.type(screen.getByLabelText('Password'), 'long enough');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));

    expect(await screen.findByText('Organization Name is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Organization Name')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Domain')).toHaveAccessibleDescription('Domain is required');
    expect(screen.getByLabelText('Industry')).toHaveAccessibleDescription('Industry is required');
    expect(screen.queryByText('Email is required')).not.toBeInTheDocument();
    expect(network.calls).toHaveLength(0);
  });

  it('asks for a password of at least 8 characters', async () => {
    stubFetch();
    const { user } = renderSignUp();

    await user.type(screen.getByLabelText('Password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));

    expect(await screen.findByText('Password must be at least 8 characters')).toBeInTheDocument();
  });

  it('refuses one of the most common passwords before calling the server', async () => {
    const network = stubFetch();
    const { user } = renderSignUp();

    await user.type(screen.getByLabelText('Email'), 'ada@example.test');
    await user.type(screen.getByLabelText('Password'), 'Password1');
    await user.type(screen.getByLabelText('Name'), 'Ada');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));

    const message = 'This password is too common; choose one that is harder to guess';
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(message);
    expect(network.calls).toHaveLength(0);
  });

  it('registers a node provider with email, password, role and name, then welcomes them', async () => {
    const network = stubFetch().on(REGISTER, () =>
      jsonResponse(201, authResponseFor(providerUser, '3')),
    );
    const { user, onSignedUp } = renderSignUp();

    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.type(screen.getByLabelText('Name'), '  Ada Lovelace ');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));

    expect(await screen.findByText('Account created!')).toBeInTheDocument();
    expect(screen.getByText(/Welcome to Fabric!/)).toBeInTheDocument();
    expect(network.callsTo(REGISTER)[0]?.body).toEqual({
      email: 'ada@example.com',
      password: 'correct horse',
      role: 'node_provider',
      name: 'Ada Lovelace',
    });
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBe('access-3');
    expect(localStorage.getItem(STORAGE_KEYS.userRole)).toBe('node_provider');
    expect(onSignedUp).toHaveBeenCalledTimes(1);
  });

  it('registers an enterprise with its organization name, domain and industry', async () => {
    const network = stubFetch().on(REGISTER, () =>
      jsonResponse(201, authResponseFor(enterpriseUser)),
    );
    const { user } = renderSignUp('enterprise');

    await user.type(screen.getByLabelText('Email'), 'ops@acme.test');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.type(screen.getByLabelText('Organization Name'), 'Acme Research');
    await user.type(screen.getByLabelText('Domain'), 'acme.test');
    await user.type(screen.getByLabelText('Industry'), 'Healthcare');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));

    await screen.findByText('Account created!');
    expect(network.callsTo(REGISTER)[0]?.body).toEqual({
      email: 'ops@acme.test',
      password: 'correct horse',
      role: 'enterprise',
      organization_name: 'Acme Research',
      domain: 'acme.test',
      industry: 'Healthcare',
    });
    expect(localStorage.getItem(STORAGE_KEYS.userRole)).toBe('enterprise');
  });

  it("shows 'Registration failed' with the server's message under the blamed field too", async () => {
    stubFetch().on(REGISTER, () =>
      jsonResponse(409, { message: 'Email already registered', code: 'CONFLICT', field: 'email' }),
    );
    const { user, onSignedUp } = renderSignUp();

    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.type(screen.getByLabelText('Name'), 'Ada');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));

    expect(await screen.findByText('Registration failed')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Email already registered');
    expect(onSignedUp).not.toHaveBeenCalled();
  });

  it('falls back to the could-not-create text when the server gives no message', async () => {
    stubFetch().on(REGISTER, () => new Response('', { status: 502 }));
    const { user } = renderSignUp();

    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.type(screen.getByLabelText('Name'), 'Ada');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));

    expect(
      await screen.findByText('Could not create account. Please try again.'),
    ).toBeInTheDocument();
  });
});
