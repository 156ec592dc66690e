import { describe, expect, it } from 'vitest';
import { loginRequestSchema, registerRequestSchema, updateProfileRequestSchema } from './auth.ts';

function firstIssue(result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) {
  const issue = result.error?.issues[0];
  return issue ? { path: issue.path.join('.'), message: issue.message } : undefined;
}

describe('registerRequestSchema', () => {
  it('accepts the three fields the spec client sends and lower-cases the email', () => {
    const parsed = registerRequestSchema.parse({
      email: ' Ada@Example.COM ',
      password: 'correct horse',
      role: 'enterprise',
    });
    expect(parsed.email).toBe('ada@example.com');
    expect(parsed.role).toBe('enterprise');
  });

  it('names the field and the reason for a bad email, short password and unknown role', () => {
    expect(
      firstIssue(
        registerRequestSchema.safeParse({
          email: 'nope',
          password: 'longenough',
          role: 'enterprise',
        }),
      ),
    ).toEqual({
      path: 'email',
      message: 'Email must be a valid email address',
    });
    expect(
      firstIssue(
        registerRequestSchema.safeParse({ email: 'a@b.co', password: 'short', role: 'enterprise' }),
      ),
    ).toEqual({
      path: 'password',
      message: 'Password must be at least 8 characters',
    });
    expect(
      firstIssue(
        registerRequestSchema.safeParse({ email: 'a@b.co', password: 'longenough', role: 'admin' }),
      ),
    ).toEqual({
      path: 'role',
      message: 'Role must be node_provider or enterprise',
    });
  });

  it('says a missing email is required', () => {
    expect(firstIssue(loginRequestSchema.safeParse({ password: 'x' }))).toEqual({
      path: 'email',
      message: 'Email is required',
    });
  });
});

describe('updateProfileRequestSchema', () => {
  it('refuses an empty update', () => {
    expect(updateProfileRequestSchema.safeParse({}).success).toBe(false);
    expect(updateProfileRequestSchema.safeParse({ name: 'Ada' }).success).toBe(true);
  });
});
