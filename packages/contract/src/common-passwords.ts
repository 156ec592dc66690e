import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './constants.ts';
import { COMMON_PASSWORDS_PACKED } from './common-passwords.data.ts';

// New passwords (sign-up, reset, change) must not be among the most common ones: those are what
// a guesser tries first, whatever the rate limits.
//
// The list: the 10,000 highest-ranked passwords of the maintained zxcvbn-ts common list
// (@zxcvbn-ts/language-common, MIT, a devDependency), keeping only those of an allowed length
// (shorter ones already fail the length rule): 3,534 passwords. It is generated into
// common-passwords.data.ts (`npm run generate:common-passwords -w @fabric/contract`; a test fails
// when the installed list and the data file differ), sorted and prefix-coded: about 17 KB raw,
// 9 KB gzipped. That is small enough to live in the contract itself, so the web forms refuse a
// common password as they type, with the same message as the server's 400, instead of after a
// round trip; the whole 49,000-entry list (380 KB) would not be, and would add little: past the
// first 10,000, a guess is rarely right.

export const COMMON_PASSWORD_MESSAGE =
  'This password is too common; choose one that is harder to guess';

/** How many of the most common passwords are refused (before keeping the allowed lengths). */
export const COMMON_PASSWORD_RANKS = 10_000;

/** Passwords are compared lower-cased and trimmed: "PassWord " is as weak as "password". */
function normalize(password: string): string {
  return password.trim().toLowerCase();
}

/** The entries of a ranked list (most common first) that the data file holds, sorted. */
export function selectCommonPasswords(ranked: readonly string[]): string[] {
  const kept = new Set<string>();
  for (const password of ranked.slice(0, COMMON_PASSWORD_RANKS)) {
    const normalized = normalize(password);
    if (normalized.length >= PASSWORD_MIN_LENGTH && normalized.length <= PASSWORD_MAX_LENGTH) {
      kept.add(normalized);
    }
  }
  return [...kept].sort();
}

/**
 * Sorted passwords as one string: each entry is a letter A-Z giving how many leading characters
 * it shares with the previous one (A = 0 ... Z = 25), then the rest. Entries are lower-case, so
 * A-Z never occurs inside them.
 */
export function packPasswords(sorted: readonly string[]): string {
  let previous = '';
  return sorted
    .map((password) => {
      if (/[A-Z]/.test(password)) throw new Error(`Cannot pack an upper-case entry: ${password}`);
      let shared = 0;
      const limit = Math.min(password.length, previous.length, 25);
      while (shared < limit && password[shared] === previous[shared]) shared += 1;
      previous = password;
      return String.fromCharCode(65 + shared) + password.slice(shared);
    })
    .join('');
}

export function unpackPasswords(packed: string): string[] {
  const passwords: string[] = [];
  let previous = '';
  for (const entry of packed.match(/[A-Z][^A-Z]*/g) ?? []) {
    previous = previous.slice(0, entry.charCodeAt(0) - 65) + entry.slice(1);
    passwords.push(previous);
  }
  return passwords;
}

let commonPasswords: Set<string> | undefined;

export function isCommonPassword(password: string): boolean {
  // Unpacked on first use (a few milliseconds), not when the contract loads.
  commonPasswords ??= new Set(unpackPasswords(COMMON_PASSWORDS_PACKED));
  return commonPasswords.has(normalize(password));
}
