import { describe, expect, it } from '@jest/globals';
import { CurrentPasswordRequiredError, GoogleIdentityMismatchError, InvalidCurrentPasswordError, InvalidResetTokenError, NoPasswordError } from './errors.js';
import {
  assertResetTokenUsable,
  decideUser,
  evolveUser,
  initialUserState,
  MAX_PENDING_RESET_TOKENS,
  RESET_TOKEN_TTL_MS,
  userIdForAccount,
  userStream,
  type UserCommand,
  type UserEvent,
  type UserState,
} from './user.js';

const now = new Date('2026-11-22T10:00:00.000Z');
const later = (ms: number) => new Date(now.getTime() + ms);
const identity = { user_id: 'usr_1', account_id: 'acct_1', email: 'ama@example.com' };
const replay = (events: UserEvent[], from: UserState = initialUserState) => events.reduce(evolveUser, from);

/** given `history`, when `command`: the events decided (and the state they lead to). */
function when(history: UserEvent[], command: UserCommand): { events: UserEvent[]; state: UserState } {
  const given = replay(history);
  const events = decideUser(command, given);
  return { events, state: replay(events, given) };
}

const setPassword = (hash: string, current: 'absent' | 'verified' | 'wrong' = 'absent', at = now): UserCommand => ({
  type: 'SetPassword',
  identity,
  password_hash: hash,
  current_password: current,
  now: at,
});
const withPassword: UserEvent[] = when([], setPassword('$2b$04$first')).events;
const resetRequested = (tokenHash: string, at = now): UserEvent[] => when(withPassword, { type: 'RequestPasswordReset', token_hash: tokenHash, now: at }).events;

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
    const { events, state } = when([], setPassword('$2b$04$hash'));
    expect(events).toEqual([
      { type: 'UserRegistered', data: { ...identity, registered_at: now.toISOString() } },
      { type: 'UserPasswordAttached', data: { user_id: 'usr_1', password_hash: '$2b$04$hash', attached_at: now.toISOString() } },
    ]);
    expect(state).toMatchObject({ status: 'registered', ...identity, password: { hash: '$2b$04$hash', set_at: now.toISOString(), epoch: 1 } });
  });

  it('given a user without a password (signed in with Google), attaching needs no current password', () => {
    const linked = when([], { type: 'LinkGoogleIdentity', identity, subject: 'g-1', now }).events;
    const { events } = when(linked, setPassword('$2b$04$hash'));
    expect(events.map((event) => event.type)).toEqual(['UserPasswordAttached']);
  });

  it('given a password, changing it without the current one is refused', () => {
    expect(() => when(withPassword, setPassword('$2b$04$second'))).toThrow(CurrentPasswordRequiredError);
  });

  it('given a password, changing it with a wrong current one is refused', () => {
    expect(() => when(withPassword, setPassword('$2b$04$second', 'wrong'))).toThrow(InvalidCurrentPasswordError);
  });

  it('given a password, changing it with the verified current one replaces the hash and moves the epoch', () => {
    const { events, state } = when(withPassword, setPassword('$2b$04$second', 'verified', later(1000)));
    expect(events).toEqual([{ type: 'UserPasswordChanged', data: { user_id: 'usr_1', password_hash: '$2b$04$second', changed_at: later(1000).toISOString() } }]);
    expect(state).toMatchObject({ password: { hash: '$2b$04$second', epoch: 2 } });
  });

  it('a rehash swaps the hash but keeps the epoch: tokens issued under the same password stay', () => {
    const { events, state } = when(withPassword, { type: 'RehashPassword', password_hash: '$2b$12$same', now });
    expect(events.map((event) => event.type)).toEqual(['UserPasswordRehashed']);
    expect(state).toMatchObject({ password: { hash: '$2b$12$same', epoch: 1, set_at: now.toISOString() } });
    expect(() => when([], { type: 'RehashPassword', password_hash: 'x', now })).toThrow(NoPasswordError);
  });
});

describe('user decider: password reset', () => {
  it('given no user, or a user without a password, a request mints nothing (and nothing is mailed)', () => {
    expect(when([], { type: 'RequestPasswordReset', token_hash: 't1', now }).events).toEqual([]);
    const linked = when([], { type: 'LinkGoogleIdentity', identity, subject: 'g-1', now }).events;
    expect(when(linked, { type: 'RequestPasswordReset', token_hash: 't1', now }).events).toEqual([]);
  });

  it('given a password, a request records the token hash, valid for 30 minutes', () => {
    const { events, state } = when(withPassword, { type: 'RequestPasswordReset', token_hash: 't1', now });
    expect(events).toEqual([
      {
        type: 'UserPasswordResetRequested',
        data: { user_id: 'usr_1', token_hash: 't1', requested_at: now.toISOString(), expires_at: later(RESET_TOKEN_TTL_MS).toISOString() },
      },
    ]);
    expect(RESET_TOKEN_TTL_MS).toBe(30 * 60_000);
    expect(state).toMatchObject({ pending_resets: { t1: later(RESET_TOKEN_TTL_MS).toISOString() } });
  });

  it(`mints at most ${MAX_PENDING_RESET_TOKENS} unexpired tokens; once they expire, requests mint again`, () => {
    let history = withPassword;
    for (let i = 0; i < MAX_PENDING_RESET_TOKENS; i += 1) {
      const { events } = when(history, { type: 'RequestPasswordReset', token_hash: `t${i}`, now: later(i * 1000) });
      expect(events).toHaveLength(1);
      history = [...history, ...events];
    }
    expect(when(history, { type: 'RequestPasswordReset', token_hash: 'one-too-many', now: later(5000) }).events).toEqual([]);
    const { events, state } = when(history, { type: 'RequestPasswordReset', token_hash: 'fresh', now: later(RESET_TOKEN_TTL_MS + 5000) });
    expect(events).toHaveLength(1);
    // The expired ones are forgotten.
    expect(Object.keys((state as { pending_resets: object }).pending_resets)).toEqual(['fresh']);
  });

  it('given a requested token, resetting with it within 30 minutes sets the password and spends the token', () => {
    const history = [...withPassword, ...resetRequested('t1')];
    const { events, state } = when(history, { type: 'ResetPassword', token_hash: 't1', password_hash: '$2b$04$new', now: later(RESET_TOKEN_TTL_MS - 1) });
    expect(events).toEqual([
      { type: 'UserPasswordReset', data: { user_id: 'usr_1', token_hash: 't1', password_hash: '$2b$04$new', reset_at: later(RESET_TOKEN_TTL_MS - 1).toISOString() } },
    ]);
    expect(state).toMatchObject({ password: { hash: '$2b$04$new', epoch: 2 }, pending_resets: {} });
  });

  it('given a spent token, a second reset with it is refused (one-time)', () => {
    const history = [...withPassword, ...resetRequested('t1')];
    const first = when(history, { type: 'ResetPassword', token_hash: 't1', password_hash: '$2b$04$new', now });
    expect(() => when([...history, ...first.events], { type: 'ResetPassword', token_hash: 't1', password_hash: '$2b$04$newer', now })).toThrow(InvalidResetTokenError);
  });

  it('given a token 30 minutes old, the reset is refused (expired)', () => {
    const history = [...withPassword, ...resetRequested('t1')];
    expect(() => when(history, { type: 'ResetPassword', token_hash: 't1', password_hash: '$2b$04$new', now: later(RESET_TOKEN_TTL_MS) })).toThrow(InvalidResetTokenError);
    expect(() => assertResetTokenUsable(replay(history), 't1', later(RESET_TOKEN_TTL_MS + 1))).toThrow(InvalidResetTokenError);
    expect(() => assertResetTokenUsable(replay(history), 't1', later(RESET_TOKEN_TTL_MS - 1))).not.toThrow();
  });

  it('refuses a token the user never minted, and any token of a user without a password', () => {
    const history = [...withPassword, ...resetRequested('t1')];
    expect(() => when(history, { type: 'ResetPassword', token_hash: 'other', password_hash: 'h', now })).toThrow(InvalidResetTokenError);
    expect(() => when([], { type: 'ResetPassword', token_hash: 't1', password_hash: 'h', now })).toThrow(InvalidResetTokenError);
  });

  it('a reset voids the other outstanding tokens of the user', () => {
    const history = [...withPassword, ...resetRequested('t1'), ...when([...withPassword, ...resetRequested('t1')], { type: 'RequestPasswordReset', token_hash: 't2', now }).events];
    const reset = when(history, { type: 'ResetPassword', token_hash: 't1', password_hash: '$2b$04$new', now });
    expect(() => when([...history, ...reset.events], { type: 'ResetPassword', token_hash: 't2', password_hash: 'h', now })).toThrow(InvalidResetTokenError);
  });

  it('a password change voids outstanding tokens too', () => {
    const history = [...withPassword, ...resetRequested('t1')];
    const changed = when(history, setPassword('$2b$04$second', 'verified'));
    expect(() => when([...history, ...changed.events], { type: 'ResetPassword', token_hash: 't1', password_hash: 'h', now })).toThrow(InvalidResetTokenError);
  });
});

describe('user decider: Google sign-in', () => {
  it('given nothing, the first sign-in registers the user and links the Google account', () => {
    const { events, state } = when([], { type: 'LinkGoogleIdentity', identity, subject: 'g-1', now });
    expect(events.map((event) => event.type)).toEqual(['UserRegistered', 'UserGoogleIdentityLinked']);
    expect(state).toMatchObject({ status: 'registered', google_subject: 'g-1', password: null });
  });

  it('given a user with a password, the first sign-in links without registering again', () => {
    expect(when(withPassword, { type: 'LinkGoogleIdentity', identity, subject: 'g-1', now }).events.map((event) => event.type)).toEqual(['UserGoogleIdentityLinked']);
  });

  it('given a link, the same Google account signs in without new events', () => {
    const linked = when([], { type: 'LinkGoogleIdentity', identity, subject: 'g-1', now }).events;
    expect(when(linked, { type: 'LinkGoogleIdentity', identity, subject: 'g-1', now }).events).toEqual([]);
  });

  it('given a link, another Google account with the same address is refused', () => {
    const linked = when([], { type: 'LinkGoogleIdentity', identity, subject: 'g-1', now }).events;
    expect(() => when(linked, { type: 'LinkGoogleIdentity', identity, subject: 'g-2', now })).toThrow(GoogleIdentityMismatchError);
  });
});
