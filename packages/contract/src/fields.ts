import { z } from 'zod';
import {
  EMAIL_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  TEXT_FIELD_MAX_LENGTH,
} from './constants.ts';
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from './common-passwords.ts';

// Field schemas shared by the server's validation and the web forms, so both say the same thing.

export const emailSchema = z
  .string({ error: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .max(EMAIL_MAX_LENGTH, `Email must be at most ${EMAIL_MAX_LENGTH} characters`)
  .pipe(z.email('Email must be a valid email address'))
  .transform((email) => email.toLowerCase());

/** For sign-in only presence is checked: a wrong password must not reveal the password rules. */
export const passwordPresentSchema = z
  .string({ error: 'Password is required' })
  .min(1, 'Password is required')
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`);

export const newPasswordSchema = z
  .string({ error: 'Password is required' })
  .min(1, 'Password is required')
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`)
  // After the length rules, and only for a password that passes them, so it never hides them.
  .refine(
    (password) =>
      password.length < PASSWORD_MIN_LENGTH ||
      password.length > PASSWORD_MAX_LENGTH ||
      !isCommonPassword(password),
    COMMON_PASSWORD_MESSAGE,
  );

export function requiredText(label: string) {
  return z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(TEXT_FIELD_MAX_LENGTH, `${label} must be at most ${TEXT_FIELD_MAX_LENGTH} characters`);
}

export function optionalText(label: string) {
  return z
    .string()
    .trim()
    .max(TEXT_FIELD_MAX_LENGTH, `${label} must be at most ${TEXT_FIELD_MAX_LENGTH} characters`)
    .optional();
}

export const idSchema = z.uuid('Must be a valid id');
export const timestampSchema = z.string().describe('ISO 8601 date-time');
