import { describe, expect, it } from '@jest/globals';
import { deciderSpec } from '../../../platform/src/testing/decider-spec.js';
import { CurrentPasswordRequiredError, GoogleIdentityMismatchError, InvalidCurrentPasswordError, InvalidResetTokenError, NoPasswordError } from './user-errors.js';
import {
  assertResetTokenUsable,
  MAX_PENDING_RESET_TOKENS,
  RESET_TOKEN_TTL_MS,
  userDecider,
  userIdForAccount,
  userStream,
  type SetPassword,
  type UserCommand,
  type UserEvent,
} from './user.js';

const now = new Date('2026-11-22T10:00:00.000Z');
const later = (ms: number) => new Date(now.getTime() + ms);
const identity = { user_id: 'usr_1', account_id: 'acct_1', email: 'ama@example.com' };
const { given, history } = deciderSpec(userDecider, now);

const setPassword = (hash: string, current: 'absent' | 'verified' | 'wrong' = 'absent'): SetPassword => ({
  type: 'SetPassword',
  identity,
  checked: { password_hash: hash, current_password: current },
});
const requestReset = (tokenHash: string): UserCommand => ({ type: 'RequestPasswordReset', user_id: 'usr_1', token_hash: tokenHash });
const reset = (tokenHash: string, passwordHash = '$scrypt$new'): UserCommand => ({ type: 'ResetPassword', user_id: 'usr_1', token_hash: tokenHash, password_hash: passwordHash });
const link = (subject: string): UserCommand => ({ type: 'LinkGoogleIdentity', identity, subject });
const withPassword: UserEvent[] = history(setPassword('$scrypt$first'));

describe('user ids and streams', () => {
  it('derives the user from the account, so a key finds its user without a lookup', () => {
    expect(userIdForAccount('acct_0123456789abcdef0123')).toBe('usr_0123456789abcdef0123');
    expect(userIdForAccount('acct_0123456789abcdef0123')).toBe(userIdForAccount('acct_0123456789abcdef0123'));
    expect(userIdForAccount('acct_a')).not.toBe(userIdForAccount('acct_b'));
    expect(userStream('usr_1')).toBe('user-usr_1');
  });
});

describe('user decider: passwords', () => {
  it('given nothing, setting a password registers the user and attaches the hash', () => {
    const { events, state } = given([]).when(setPassword('$scrypt$hash'));
    expect(events).toEqual([
      { type: 'UserRegistered', data: { ...identity, registered_at: now.toISOString() } },
      { type: 'UserPasswordAttached', data: { user_id: 'usr_1', password_hash: '$scrypt$hash', attached_at: now.toISOString() } },
    ]);
    expect(state).toMatchObject({ status: 'registered', ...identity, password: { hash: '$scrypt$hash', set_at: now.toISOString(), epoch: 1 } });
  });

  it('refuses a SetPassword whose passwords were not checked (a defect in the handler, not a client error)', () => {
    expect(given([]).when({ type: 'SetPassword', identity }).error).toBeInstanceOf(Error);
  });

  it('given a user without a password (signed in with Google), attaching needs no current password', () => {
    expect(given(history(link('g-1'))).when(setPassword('$scrypt$hash')).events.map((event) => event.type)).toEqual(['UserPasswordAttached']);
  });

  it('given a password, changing it without the current one is refused', () => {
    expect(given(withPassword).when(setPassword('$scrypt$second')).error).toBeInstanceOf(CurrentPasswordRequiredError);
  });

  it('given a password, changing it with a wrong current one is refused', () => {
    expect(given(withPassword).when(setPassword('$scrypt$second', 'wrong')).error).toBeInstanceOf(InvalidCurrentPasswordError);
  });

  it('given a password, changing it with the verified current one replaces the hash and moves the epoch', () => {
    const { events, state } = given(withPassword).when(setPassword('$scrypt$second', 'verified'), later(1000));
    expect(events).toEqual([{ type: 'UserPasswordChanged', data: { user_id: 'usr_1', password_hash: '$scrypt$second', changed_at: later(1000).toISOString() } }]);
    expect(state).toMatchObject({ password: { hash: '$scrypt$second', epoch: 2 } });
  });

  it('a rehash swaps the hash but keeps the epoch: tokens issued under the same password stay', () => {
    const { events, state } = given(withPassword).when({ type: 'RehashPassword', user_id: 'usr_1', replaces: '$scrypt$first', password_hash: '$scrypt$same' });
    expect(events).toEqual([{ type: 'UserPasswordRehashed', data: { user_id: 'usr_1', password_hash: '$scrypt$same', rehashed_at: now.toISOString() } }]);
    expect(state).toMatchObject({ password: { hash: '$scrypt$same', epoch: 1, set_at: now.toISOString() } });
  });

  it('drops a rehash of a hash that is no longer stored: it never lands on a newer password', () => {
    const changed = [...withPassword, ...given(withPassword).when(setPassword('$scrypt$second', 'verified')).events];
    const { events, state } = given(changed).when({ type: 'RehashPassword', user_id: 'usr_1', replaces: '$scrypt$first', password_hash: '$scrypt$first-again' });
    expect(events).toEqual([]);
    expect(state).toMatchObject({ password: { hash: '$scrypt$second' } });
  });

  it('refuses a rehash of a user without a password (a defect in the caller)', () => {
    expect(given([]).when({ type: 'RehashPassword', user_id: 'usr_1', replaces: 'x', password_hash: 'y' }).error).toBeInstanceOf(NoPasswordError);
  });
});

describe('user decider: password reset', () => {
  it('given no user, or a user without a password, a request mints nothing (and nothing is mailed)', () => {
    expect(given([]).when(requestReset('t1')).events).toEqual([]);
    expect(given(history(link('g-1'))).when(requestReset('t1')).events).toEqual([]);
  });

  it('given a password, a request records the token hash, valid for 30 minutes', () => {
    const { events, state } = given(withPassword).when(requestReset('t1'));
    expect(events).toEqual([
      { type: 'UserPasswordResetRequested', data: { user_id: 'usr_1', token_hash: 't1', requested_at: now.toISOString(), expires_at: later(RESET_TOKEN_TTL_MS).toISOString() } },
    ]);
    expect(RESET_TOKEN_TTL_MS).toBe(30 * 60_000);
    expect(state).toMatchObject({ pending_resets: { t1: later(RESET_TOKEN_TTL_MS).toISOString() } });
  });

  it(`mints at most ${MAX_PENDING_RESET_TOKENS} unexpired tokens; once they expire, requests mint again`, () => {
    let events = withPassword;
    for (let i = 0; i < MAX_PENDING_RESET_TOKENS; i += 1) {
      const minted = given(events).when(requestReset(`t${i}`), later(i * 1000)).events;
      expect(minted).toHaveLength(1);
      events = [...events, ...minted];
    }
    expect(given(events).when(requestReset('one-too-many'), later(5000)).events).toEqual([]);
    const fresh = given(events).when(requestReset('fresh'), later(RESET_TOKEN_TTL_MS + 5000));
    expect(fresh.events).toHaveLength(1);
    // The expired ones are forgotten.
    expect(Object.keys((fresh.state as { pending_resets: object }).pending_resets)).toEqual(['fresh']);
  });

  it('given a requested token, resetting with it within 30 minutes sets the password and spends the token', () => {
    const { events, state } = given(history(setPassword('$scrypt$first'), requestReset('t1'))).when(reset('t1'), later(RESET_TOKEN_TTL_MS - 1));
    expect(events).toEqual([{ type: 'UserPasswordReset', data: { user_id: 'usr_1', token_hash: 't1', password_hash: '$scrypt$new', reset_at: later(RESET_TOKEN_TTL_MS - 1).toISOString() } }]);
    expect(state).toMatchObject({ password: { hash: '$scrypt$new', epoch: 2 }, pending_resets: {} });
  });

  it('given a spent token, a second reset with it is refused (one-time)', () => {
    expect(given(history(setPassword('$scrypt$first'), requestReset('t1'), reset('t1'))).when(reset('t1', '$scrypt$newer')).error).toBeInstanceOf(InvalidResetTokenError);
  });

  it('given a token 30 minutes old, the reset is refused (expired)', () => {
    const events = history(setPassword('$scrypt$first'), requestReset('t1'));
    expect(given(events).when(reset('t1'), later(RESET_TOKEN_TTL_MS)).error).toBeInstanceOf(InvalidResetTokenError);
    const { state } = given(events);
    expect(() => assertResetTokenUsable(state, 't1', later(RESET_TOKEN_TTL_MS + 1))).toThrow(InvalidResetTokenError);
    expect(() => assertResetTokenUsable(state, 't1', later(RESET_TOKEN_TTL_MS - 1))).not.toThrow();
  });

  it('refuses a token the user never minted, and any token of a user without a password', () => {
    expect(given(history(setPassword('$scrypt$first'), requestReset('t1'))).when(reset('other')).error).toBeInstanceOf(InvalidResetTokenError);
    expect(given([]).when(reset('t1')).error).toBeInstanceOf(InvalidResetTokenError);
  });

  it('a reset voids the other outstanding tokens of the user', () => {
    expect(given(history(setPassword('$scrypt$first'), requestReset('t1'), requestReset('t2'), reset('t1'))).when(reset('t2')).error).toBeInstanceOf(InvalidResetTokenError);
  });

  it('a password change voids outstanding tokens too', () => {
    expect(given(history(setPassword('$scrypt$first'), requestReset('t1'), setPassword('$scrypt$second', 'verified'))).when(reset('t1')).error).toBeInstanceOf(InvalidResetTokenError);
  });
});

describe('user decider: Google sign-in', () => {
  it('given nothing, the first sign-in registers the user and links the Google account', () => {
    const { events, state } = given([]).when(link('g-1'));
    expect(events.map((event) => event.type)).toEqual(['UserRegistered', 'UserGoogleIdentityLinked']);
    expect(state).toMatchObject({ status: 'registered', google_subject: 'g-1', password: null });
  });

  it('given a user with a password, the first sign-in links without registering again', () => {
    expect(given(withPassword).when(link('g-1')).events.map((event) => event.type)).toEqual(['UserGoogleIdentityLinked']);
  });

  it('given a link, the same Google account signs in without new events', () => {
    expect(given(history(link('g-1'))).when(link('g-1')).events).toEqual([]);
  });

  it('given a link, another Google account with the same address is refused', () => {
    expect(given(history(link('g-1'))).when(link('g-2')).error).toBeInstanceOf(GoogleIdentityMismatchError);
  });
});
