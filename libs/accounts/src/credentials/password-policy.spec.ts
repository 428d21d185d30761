import { describe, expect, it } from '@jest/globals';
import { InvalidParamError } from '../../../platform/src/errors.js';
import { WeakPasswordError } from './errors.js';
import { assertAcceptablePassword, PASSWORD_MAX_LENGTH, type PasswordContext } from './password-policy.js';

function refusal(password: unknown, context?: PasswordContext): Error {
  try {
    assertAcceptablePassword(password, context);
  } catch (error) {
    return error as Error;
  }
  throw new Error(`expected ${JSON.stringify(password)} to be refused`);
}

describe('assertAcceptablePassword', () => {
  it.each([
    ['a passphrase of common words', 'correct horse battery staple'],
    ['a mangled word with symbols', 'Tr0ub4dor&3'],
    ['random characters', 'Xq7$vL2!pR9z'],
    ['local words with separators', 'jollof-rice-Kumasi-Tuesday'],
    ['a short phrase', 'kelewele at midnight'],
    ['exactly 8 random characters', 'q7#Vm2!x'],
  ])('accepts %s', (_, password) => {
    expect(() => assertAcceptablePassword(password)).not.toThrow();
  });

  it.each([
    'password',
    'Password1',
    'PASSWORD1',
    '12345678',
    'iloveyou',
    'football',
    'trustno1',
    'qwertyuiop',
    '1qaz2wsx',
    'asdfghjkl',
    'P@ssw0rd',
  ])('refuses the common password %j because it is common', (password) => {
    const error = refusal(password);
    expect(error).toBeInstanceOf(WeakPasswordError);
    expect(error).toMatchObject({ code: 'WEAK_PASSWORD', status: 400, field: 'password' });
    expect(error.message).toMatch(/one of the most commonly used passwords/);
  });

  it('finds a common password whatever its case, though zxcvbn alone would let the alternating case pass', () => {
    // zxcvbn scores these 2: upper-case variations multiply its guess count.
    for (const password of ['cAlIfOrNiA', 'qAzWsXeDcRfV', 'tErMiNaToR']) {
      expect(refusal(password).message).toMatch(/one of the most commonly used passwords/);
    }
  });

  it.each([
    ['a leetspeak variant of a common password', 'Dr@g0n!!', /common/],
    ['another leetspeak variant', 'p4ssw0rd1!', /common/],
    ['a common password with a suffix', 'Password123!', /common/],
    ['one repeated character', 'aaaaaaaa', /repeated/],
    ['a repeated pattern', 'abc123abc123', /repeated/],
    ['an alphabet sequence', 'abcdefgh', /sequence/],
    ['a date', '2019-12-25', /date/],
  ])('refuses %s and says why', (_, password, why) => {
    const error = refusal(password);
    expect(error).toBeInstanceOf(WeakPasswordError);
    expect(error).toMatchObject({ code: 'WEAK_PASSWORD', field: 'password' });
    expect(error.message).toMatch(/too easy to guess/);
    expect(error.message).toMatch(why);
  });

  it('refuses a password built from the user\u2019s own name once it knows the name', () => {
    expect(() => assertAcceptablePassword('Mensah2024')).not.toThrow();
    const error = refusal('Mensah2024', { userInputs: ['Kofi Mensah', 'kofi.mensah@example.com'] });
    expect(error).toBeInstanceOf(WeakPasswordError);
    expect(error.message).toMatch(/your name or email/);
  });

  it('ignores missing user details', () => {
    expect(() => assertAcceptablePassword('Tr0ub4dor&3', { userInputs: [null, undefined, ''] })).not.toThrow();
  });

  it('refuses 7 characters and accepts 8, counting characters rather than UTF-16 units', () => {
    const error = refusal('q7#Vm2!');
    expect(error).toBeInstanceOf(WeakPasswordError);
    expect(error.message).toMatch(/at least 8 characters/);
    // Seven characters outside the BMP: 14 UTF-16 units, still too short.
    expect(refusal('\u{1D538}\u{1D539}\u2102\u{1D53B}\u{1D53C}\u{1D53D}\u{1D53E}')).toBeInstanceOf(WeakPasswordError);
  });

  it('counts a decomposed accent as one character (NFC)', () => {
    // The last character is "e" plus a combining acute accent: 9 code points, 8 characters once composed.
    const decomposed = 'q7#Vm2!e\u0301';
    expect(decomposed).toHaveLength(9);
    expect(() => assertAcceptablePassword(decomposed)).not.toThrow();
    expect(refusal('q7#Vm2e\u0301')).toBeInstanceOf(WeakPasswordError);
  });

  it(`accepts ${PASSWORD_MAX_LENGTH} characters and refuses more as INVALID_PARAM`, () => {
    const longest = 'Xq7$vL2!pR9zKw4%'.repeat(PASSWORD_MAX_LENGTH / 16);
    expect(() => assertAcceptablePassword(longest)).not.toThrow();
    const error = refusal(`${longest}a`);
    expect(error).toBeInstanceOf(InvalidParamError);
    expect(error).toMatchObject({ code: 'INVALID_PARAM', status: 400, field: 'password' });
    expect(error.message).toMatch(/at most 256/);
  });

  it('names the field it was told to', () => {
    expect(refusal('password', { field: 'new_password' })).toMatchObject({ code: 'WEAK_PASSWORD', field: 'new_password' });
    expect(refusal(12345678, { field: 'new_password' })).toMatchObject({ code: 'INVALID_PARAM', field: 'new_password' });
  });

  it.each([[undefined], [null], [12345678], [['password']]])('refuses %j, which is not a string, as INVALID_PARAM', (value) => {
    expect(refusal(value)).toMatchObject({ code: 'INVALID_PARAM', status: 400, field: 'password' });
  });
});
