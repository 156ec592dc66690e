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

/**
 * Characters no stored text may hold: NUL (PostgreSQL refuses it in text and jsonb) and a lone
 * UTF-16 surrogate (not Unicode at all: jsonb refuses it, text columns would silently turn it
 * into U+FFFD). A surrogate pair (an emoji) is one code point under the `u` flag, never matched.
 */
const LONE_SURROGATE = /\p{Cs}/u;

/** Why PostgreSQL cannot store `text` ("must not contain ..."), or undefined when it can. */
export function unsafeTextProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain a NUL character (\\u0000)';
  if (LONE_SURROGATE.test(text)) {
    return 'must not contain a lone surrogate (invalid Unicode)';
  }
  return undefined;
}

/** The refinement every free string of the contract carries: no NUL, no lone surrogate. */
export function refuseUnsafeText(label: string) {
  return (text: string, context: z.RefinementCtx<string>) => {
    const problem = unsafeTextProblem(text);
    if (problem) context.addIssue({ code: 'custom', message: `${label} ${problem}` });
  };
}

/**
 * A free string: text PostgreSQL can store (see unsafeTextProblem), at most `max` characters.
 * `trim` trims first (the length counts what is kept); `error` is the text for a missing or
 * non-string value. Chain `.min()`, `.regex()`, `.optional()` as usual.
 */
export function safeString(
  label: string,
  max: number,
  options: { trim?: boolean; error?: string } = {},
) {
  const base = options.error ? z.string({ error: options.error }) : z.string();
  return (options.trim ? base.trim() : base)
    .superRefine(refuseUnsafeText(label))
    .max(max, `${label} must be at most ${max} characters`);
}

export function requiredText(label: string) {
  return safeString(label, TEXT_FIELD_MAX_LENGTH, {
    trim: true,
    error: `${label} is required`,
  }).min(1, `${label} is required`);
}

export function optionalText(label: string) {
  return safeString(label, TEXT_FIELD_MAX_LENGTH, { trim: true }).optional();
}

/** Nesting allowed in free JSON values: far beyond any real params, far below a stack overflow. */
export const JSON_MAX_DEPTH = 32;

/**
 * A free JSON object (params of job types without a fixed shape, agent results before their
 * type's schema): every key and string value, at any depth, must be text PostgreSQL can store
 * (issues name the path: `prompt`, `messages.1.content`; a bad key names its object), nesting
 * stops at JSON_MAX_DEPTH, and `maxBytes` bounds its UTF-8 JSON size.
 */
export function safeJsonRecord(label: string, options: { maxBytes?: number } = {}) {
  return z
    .record(z.string(), z.unknown(), { error: `${label} must be a JSON object` })
    .superRefine((record, context) => {
      // Iterative, so no input can overflow the stack; stops at the first problem.
      const pending: { value: unknown; path: (string | number)[] }[] = [
        { value: record, path: [] },
      ];
      const where = (path: (string | number)[]) => [label, ...path].join('.');
      for (let next = pending.pop(); next; next = pending.pop()) {
        const { value, path } = next;
        if (typeof value === 'string') {
          const problem = unsafeTextProblem(value);
          if (problem) {
            context.addIssue({ code: 'custom', path, message: `${where(path)} ${problem}` });
            return;
          }
          continue;
        }
        if (typeof value !== 'object' || value === null) continue;
        if (path.length >= JSON_MAX_DEPTH) {
          context.addIssue({
            code: 'custom',
            path,
            message: `${label} must not nest deeper than ${JSON_MAX_DEPTH} levels`,
          });
          return;
        }
        if (Array.isArray(value)) {
          value.forEach((item, index) => pending.push({ value: item, path: [...path, index] }));
          continue;
        }
        for (const [key, item] of Object.entries(value)) {
          const problem = unsafeTextProblem(key);
          if (problem) {
            context.addIssue({
              code: 'custom',
              path,
              message: `Keys of ${where(path)} ${problem}`,
            });
            return;
          }
          pending.push({ value: item, path: [...path, key] });
        }
      }
      if (options.maxBytes === undefined) return;
      const bytes = new TextEncoder().encode(JSON.stringify(record)).length;
      if (bytes > options.maxBytes) {
        context.addIssue({
          code: 'custom',
          message: `${label} must be at most ${formatBytes(options.maxBytes)} as JSON`,
        });
      }
    });
}

function formatBytes(bytes: number): string {
  return bytes % 1024 === 0 ? `${bytes / 1024} KB (${bytes} bytes)` : `${bytes} bytes`;
}

export const idSchema = z.uuid('Must be a valid id');
export const timestampSchema = z.string().describe('ISO 8601 date-time');

/** `page` of a list's query string: 1 and up. */
export const pageQuerySchema = z.coerce
  .number()
  .int('page must be a whole number')
  .min(1, 'page must be at least 1');

/** `page_size` of a list's query string: 1 to 100. */
export const pageSizeQuerySchema = z.coerce
  .number()
  .int('page_size must be a whole number')
  .min(1, 'page_size must be at least 1')
  .max(100, 'page_size must be at most 100');
