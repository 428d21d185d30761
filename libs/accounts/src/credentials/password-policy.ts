import { ZxcvbnFactory, type ZxcvbnResult } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';
import { InvalidParamError } from '../../../platform/src/errors.js';
import { WeakPasswordError } from './errors.js';

/** interface.md, "Authentication" 5 and "Limits" 7. */
export const PASSWORD_MIN_LENGTH = 8;

/**
 * Long passphrases are welcome; the ceiling only bounds the strength
 * estimator's work (zxcvbn's own cap is 256). scrypt reads every byte (and
 * the legacy bcrypt hashes pre-hashed inputs past 72 bytes), so every
 * character up to this limit counts.
 */
export const PASSWORD_MAX_LENGTH = 256;

/** zxcvbn scores 0–4; 0 and 1 fall to an online or a slow offline attack (under 10^6 guesses). */
const MIN_SCORE = 2;

export interface PasswordContext {
  /** Body field the error names (`password`, `new_password`). */
  field?: string;
  /** What the attacker knows about the user (email, name): a password built from them is weak. */
  userInputs?: readonly (string | null | undefined)[];
}

/**
 * Throws unless `password` is acceptable as a new password: at least 8 and at
 * most 256 characters (Unicode code points, after NFC normalisation, as
 * {@link PasswordHasher} hashes it), not in the common-password list of
 * `@zxcvbn-ts/language-common`, and scored at least 2 by zxcvbn with that
 * list, its keyboard layouts and the user's own details.
 *
 * Only for setting a password: signing in never re-checks the policy.
 */
export function assertAcceptablePassword(password: unknown, context: PasswordContext = {}): void {
  const field = context.field ?? 'password';
  if (typeof password !== 'string') throw new InvalidParamError(`${field} must be a string`, field);
  const normalised = password.normalize('NFC');
  const length = [...normalised].length;
  if (length < PASSWORD_MIN_LENGTH) {
    throw new WeakPasswordError(`the password is too short: use at least ${PASSWORD_MIN_LENGTH} characters`, field);
  }
  if (length > PASSWORD_MAX_LENGTH) {
    throw new InvalidParamError(`the password is too long: use at most ${PASSWORD_MAX_LENGTH} characters`, field);
  }
  if (commonPasswords().has(normalised.toLowerCase())) {
    throw new WeakPasswordError('the password is one of the most commonly used passwords: choose another', field);
  }
  const result = estimator().check(normalised, userInputsFrom(context.userInputs));
  if (result.score < MIN_SCORE) {
    throw new WeakPasswordError(`the password is too easy to guess: ${reasonFor(result)}; a few unrelated words make a strong one`, field);
  }
}

let zxcvbn: ZxcvbnFactory | undefined;
let common: ReadonlySet<string> | undefined;

/** Built on first use: ranking the dictionaries takes a noticeable moment, and only password endpoints need it. */
function estimator(): ZxcvbnFactory {
  zxcvbn ??= new ZxcvbnFactory({ dictionary: { ...dictionary }, graphs: adjacencyGraphs, maxLength: PASSWORD_MAX_LENGTH });
  return zxcvbn;
}

function commonPasswords(): ReadonlySet<string> {
  common ??= new Set(dictionary['passwords-common'].map((entry) => entry.toLowerCase()));
  return common;
}

/** The email as a whole and its parts, and each word of the name, so `kofi.mensah1987` is caught for Kofi Mensah. */
function userInputsFrom(inputs: PasswordContext['userInputs']): string[] {
  const words = new Set<string>();
  for (const input of inputs ?? []) {
    if (typeof input !== 'string' || input.trim() === '') continue;
    const value = input.trim().toLowerCase();
    words.add(value);
    for (const part of value.split(/[\s@._+-]+/)) if (part.length >= 3) words.add(part);
  }
  return [...words];
}

/** zxcvbn answers translation keys; these are our words for them. */
const REASONS: Record<string, string> = {
  straightRow: 'rows of keys like "qwerty" are easy to guess',
  keyPattern: 'keyboard patterns are easy to guess',
  simpleRepeat: 'repeated characters like "aaaa" are easy to guess',
  extendedRepeat: 'repeated patterns like "abcabc" are easy to guess',
  sequences: 'sequences like "abcd" or "1234" are easy to guess',
  recentYears: 'recent years are easy to guess',
  dates: 'dates are easy to guess',
  topTen: 'it is one of the ten most common passwords',
  topHundred: 'it is one of the hundred most common passwords',
  common: 'it is a commonly used password',
  similarToCommon: 'it is a small variation of a commonly used password',
  wordByItself: 'a single word is easy to guess',
  namesByThemselves: 'names on their own are easy to guess',
  commonNames: 'common names are easy to guess',
  userInputs: 'it contains your name or email address',
  pwned: 'it has appeared in a data breach',
};

function reasonFor(result: ZxcvbnResult): string {
  const warning = result.feedback.warning;
  return (warning && REASONS[warning]) || 'it follows a pattern attackers try early';
}
