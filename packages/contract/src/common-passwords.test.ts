import { readFileSync } from 'node:fs';
import { dictionary } from '@zxcvbn-ts/language-common';
import { describe, expect, it } from 'vitest';
import { changePasswordRequestSchema, registerRequestSchema } from './auth.ts';
import { COMMON_PASSWORDS_PACKED } from './common-passwords.data.ts';
import {
  COMMON_PASSWORD_MESSAGE,
  isCommonPassword,
  packPasswords,
  selectCommonPasswords,
  unpackPasswords,
} from './common-passwords.ts';
import { newPasswordSchema } from './fields.ts';
import { commonPasswordsDataFile } from './generate-common-passwords.ts';

const COMMON = 'This password is too common; choose one that is harder to guess';

function messagesOf(password: unknown): string[] {
  const result = newPasswordSchema.safeParse(password);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

describe('newPasswordSchema and common passwords', () => {
  it.each(['password', '12345678', 'qwertyuiop', 'iloveyou', 'sunshine', 'trustno1', 'password1'])(
    'refuses %s, one of the most common passwords',
    (password) => {
      expect(messagesOf(password)).toEqual([COMMON]);
    },
  );

  it('compares without regard to case or surrounding spaces', () => {
    expect(messagesOf('PassWord')).toEqual([COMMON]);
    expect(messagesOf('ILOVEYOU')).toEqual([COMMON]);
    expect(messagesOf(' password ')).toEqual([COMMON]);
  });

  it('accepts passwords that are not on the list', () => {
    for (const password of ['correct horse battery', 'a very secret password', 'Tr0ub4dor&3x!']) {
      expect(messagesOf(password)).toEqual([]);
    }
  });

  it('checks the length first: a short or missing password gets only the length message', () => {
    expect(messagesOf('')[0]).toBe('Password is required');
    expect(messagesOf('')).not.toContain(COMMON);
    expect(messagesOf('123456')).toEqual(['Password must be at least 8 characters']);
    expect(messagesOf('qwerty')).toEqual(['Password must be at least 8 characters']);
    expect(messagesOf(undefined)).toEqual(['Password is required']);
  });

  it('names the field in sign-up and password change', () => {
    const registration = registerRequestSchema.safeParse({
      email: 'a@b.co',
      password: 'baseball',
      role: 'enterprise',
    });
    expect(registration.error?.issues).toMatchObject([{ path: ['password'], message: COMMON }]);
    const change = changePasswordRequestSchema.safeParse({
      current_password: 'whatever it was',
      new_password: 'football',
    });
    expect(change.error?.issues).toMatchObject([{ path: ['new_password'], message: COMMON }]);
  });
});

describe('the common-password list', () => {
  const ranked = dictionary['passwords-common'];

  it('is the data file generated from the installed @zxcvbn-ts/language-common', () => {
    const dataFile = readFileSync(new URL('common-passwords.data.ts', import.meta.url), 'utf8');
    // On failure: npm run generate:common-passwords -w @fabric/contract
    expect(dataFile).toBe(commonPasswordsDataFile(ranked));
  });

  it('holds every password of an allowed length among the 10,000 most common, and no other', () => {
    const top = ranked.slice(0, 10_000).filter((password) => password.length >= 8);
    const held = unpackPasswords(COMMON_PASSWORDS_PACKED);
    expect(held).toHaveLength(new Set(top).size);
    expect(top.every(isCommonPassword)).toBe(true);
    expect(held.every((password) => password.length >= 8)).toBe(true);
    // The 10,001st most common password of an allowed length is not refused.
    const next = ranked
      .slice(10_000)
      .find((password) => password.length >= 8 && !top.includes(password));
    expect(next && isCommonPassword(next)).toBe(false);
  });

  it('packs and unpacks any sorted lower-case list unchanged', () => {
    const list = selectCommonPasswords(['password', 'passw0rd', 'PASSWORD', 'short', 'p@ssword1']);
    expect(list).toEqual(['p@ssword1', 'passw0rd', 'password']);
    expect(packPasswords(list)).toBe('Ap@ssword1Bassw0rdFord');
    expect(unpackPasswords(packPasswords(list))).toEqual(list);
  });

  it('is the message the schema gives', () => {
    expect(COMMON_PASSWORD_MESSAGE).toBe(COMMON);
  });
});
