/**
 * The user aggregate: the person behind an account, who signs in with the
 * account's e-mail address (interface.md, "Authentication" 4–5). One user per
 * account, in the stream `user-<userId>`, where the user id is derived from the
 * account id ({@link userIdForAccount}), so an account key finds its user
 * without a lookup.
 *
 * Pure decider: the handlers hash passwords and verify them, then pass the
 * outcome in; the pipeline hands in the time. Nothing here does I/O, reads
 * the clock or makes ids.
 */
import type { Decider } from '../../../platform/src/commands/decider.js';
import { CurrentPasswordRequiredError, GoogleIdentityMismatchError, InvalidCurrentPasswordError, InvalidResetTokenError, NoPasswordError } from './user-errors.js';

/** interface.md, "Limits" 7: a reset token lives 30 minutes. */
export const RESET_TOKEN_TTL_MS = 30 * 60_000;

/**
 * At most this many unexpired reset tokens per user: further requests within
 * the 30 minutes are answered like any other (202) but send no mail, so the
 * endpoint cannot be used to flood someone's inbox.
 */
export const MAX_PENDING_RESET_TOKENS = 3;

/** Established by the first event of a user's stream, whatever caused it. */
export interface UserRegistered {
  type: 'UserRegistered';
  data: { user_id: string; account_id: string; email: string; registered_at: string };
}

/** A first password, through POST /v2/me/password. Only the hash is stored (scrypt; bcrypt before). */
export interface UserPasswordAttached {
  type: 'UserPasswordAttached';
  data: { user_id: string; password_hash: string; attached_at: string };
}

/** A new password through POST /v2/me/password, after the current one was verified. */
export interface UserPasswordChanged {
  type: 'UserPasswordChanged';
  data: { user_id: string; password_hash: string; changed_at: string };
}

/** The same password hashed again after a successful sign-in (another cost, or bcrypt to scrypt); the credential does not change. */
export interface UserPasswordRehashed {
  type: 'UserPasswordRehashed';
  data: { user_id: string; password_hash: string; rehashed_at: string };
}

/** POST /v2/auth/forgot-password for a user with a password: a reset token was minted and mailed. Only its SHA-256 is stored. */
export interface UserPasswordResetRequested {
  type: 'UserPasswordResetRequested';
  data: { user_id: string; token_hash: string; requested_at: string; expires_at: string };
}

/** POST /v2/auth/reset-password: the token is spent and the password replaced. */
export interface UserPasswordReset {
  type: 'UserPasswordReset';
  data: { user_id: string; token_hash: string; password_hash: string; reset_at: string };
}

/** First sign-in with Google: the user is tied to that Google account (`sub`), which stays stable when the address changes hands. */
export interface UserGoogleIdentityLinked {
  type: 'UserGoogleIdentityLinked';
  data: { user_id: string; subject: string; linked_at: string };
}

export type UserEvent =
  | UserRegistered
  | UserPasswordAttached
  | UserPasswordChanged
  | UserPasswordRehashed
  | UserPasswordResetRequested
  | UserPasswordReset
  | UserGoogleIdentityLinked;

export const USER_EVENT_TYPES = [
  'UserRegistered',
  'UserPasswordAttached',
  'UserPasswordChanged',
  'UserPasswordRehashed',
  'UserPasswordResetRequested',
  'UserPasswordReset',
  'UserGoogleIdentityLinked',
] as const satisfies readonly UserEvent['type'][];

export interface UserPassword {
  hash: string;
  set_at: string;
  /**
   * Counts password replacements (attach, change, reset) but not rehashes:
   * a sign-in that verified the password at one epoch and finds another after
   * issuing its token lost a race with a reset, and withdraws the token.
   */
  epoch: number;
}

export interface RegisteredUser {
  status: 'registered';
  user_id: string;
  account_id: string;
  email: string;
  password: UserPassword | null;
  google_subject: string | null;
  /** Unspent reset tokens by hash, with their expiry; a password replacement voids them all. */
  pending_resets: Record<string, string>;
}

export type UserState = { status: 'none' } | RegisteredUser;

export const initialUserState: UserState = { status: 'none' };

export function userStream(userId: string): string {
  return `user-${userId}`;
}

/**
 * One user per account, named after it: `acct_<x>` has user `usr_<x>`. A
 * derivation rather than a lookup, so POST /v2/me/password goes straight from
 * the calling key to the stream, and the pair can be read off either id.
 */
export function userIdForAccount(accountId: string): string {
  return `usr_${accountId.startsWith('acct_') ? accountId.slice('acct_'.length) : accountId}`;
}

export function evolveUser(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case 'UserRegistered':
      return {
        status: 'registered',
        user_id: event.data.user_id,
        account_id: event.data.account_id,
        email: event.data.email,
        password: null,
        google_subject: null,
        pending_resets: {},
      };
    case 'UserPasswordAttached':
      return replacePassword(state, event.data.password_hash, event.data.attached_at);
    case 'UserPasswordChanged':
      return replacePassword(state, event.data.password_hash, event.data.changed_at);
    case 'UserPasswordReset':
      return replacePassword(state, event.data.password_hash, event.data.reset_at);
    case 'UserPasswordRehashed':
      if (state.status !== 'registered' || !state.password) return state;
      return { ...state, password: { ...state.password, hash: event.data.password_hash } };
    case 'UserPasswordResetRequested': {
      if (state.status !== 'registered') return state;
      // Tokens that had expired when this one was asked for can never be spent: drop them.
      const pending = Object.fromEntries(Object.entries(state.pending_resets).filter(([, expiresAt]) => expiresAt > event.data.requested_at));
      return { ...state, pending_resets: { ...pending, [event.data.token_hash]: event.data.expires_at } };
    }
    case 'UserGoogleIdentityLinked':
      return state.status === 'registered' ? { ...state, google_subject: event.data.subject } : state;
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

function replacePassword(state: UserState, hash: string, at: string): UserState {
  if (state.status !== 'registered') return state;
  return { ...state, password: { hash, set_at: at, epoch: (state.password?.epoch ?? 0) + 1 }, pending_resets: {} };
}

/** Who the user is, needed when a command may be the first event of the stream. */
export interface UserIdentity {
  user_id: string;
  account_id: string;
  email: string;
}

/** POST /v2/me/password. */
export interface SetPassword {
  type: 'SetPassword';
  identity: UserIdentity;
  /**
   * What the handler found against this very state: the new password's hash,
   * and whether `current_password` was absent, right or wrong. Set by the
   * command's `prepare` after the stream is read; a command without it is a defect.
   */
  checked?: { password_hash: string; current_password: 'absent' | 'verified' | 'wrong' };
}
/** After a successful sign-in: the same password, hashed again. */
export interface RehashPassword {
  type: 'RehashPassword';
  user_id: string;
  /** The hash the password was verified against: a rehash never lands on another password. */
  replaces: string;
  password_hash: string;
}
export interface RequestPasswordReset {
  type: 'RequestPasswordReset';
  user_id: string;
  token_hash: string;
}
export interface ResetPassword {
  type: 'ResetPassword';
  user_id: string;
  token_hash: string;
  password_hash: string;
}
export interface LinkGoogleIdentity {
  type: 'LinkGoogleIdentity';
  identity: UserIdentity;
  subject: string;
}
export type UserCommand = SetPassword | RehashPassword | RequestPasswordReset | ResetPassword | LinkGoogleIdentity;

function decideUser(command: UserCommand, state: UserState, now: Date): UserEvent[] {
  const at = now.toISOString();
  switch (command.type) {
    case 'SetPassword': {
      if (!command.checked) throw new Error('SetPassword reached the decider without its checked passwords');
      const { password_hash, current_password } = command.checked;
      if (state.status === 'none') {
        return [registered(command.identity, at), { type: 'UserPasswordAttached', data: { user_id: command.identity.user_id, password_hash, attached_at: at } }];
      }
      if (!state.password) return [{ type: 'UserPasswordAttached', data: { user_id: state.user_id, password_hash, attached_at: at } }];
      if (current_password === 'absent') throw new CurrentPasswordRequiredError();
      if (current_password === 'wrong') throw new InvalidCurrentPasswordError();
      return [{ type: 'UserPasswordChanged', data: { user_id: state.user_id, password_hash, changed_at: at } }];
    }
    case 'RehashPassword':
      if (state.status !== 'registered' || !state.password) throw new NoPasswordError();
      // The password was changed or rehashed since it was verified: the next sign-in rehashes.
      if (state.password.hash !== command.replaces) return [];
      return [{ type: 'UserPasswordRehashed', data: { user_id: state.user_id, password_hash: command.password_hash, rehashed_at: at } }];
    case 'RequestPasswordReset': {
      // No password, nothing to reset: no token, no mail, and the caller is answered as if there were.
      if (state.status !== 'registered' || !state.password) return [];
      if (unexpiredResets(state, now) >= MAX_PENDING_RESET_TOKENS) return [];
      const expiresAt = new Date(now.getTime() + RESET_TOKEN_TTL_MS);
      return [{ type: 'UserPasswordResetRequested', data: { user_id: state.user_id, token_hash: command.token_hash, requested_at: at, expires_at: expiresAt.toISOString() } }];
    }
    case 'ResetPassword':
      assertResetTokenUsable(state, command.token_hash, now);
      return [{ type: 'UserPasswordReset', data: { user_id: state.user_id, token_hash: command.token_hash, password_hash: command.password_hash, reset_at: at } }];
    case 'LinkGoogleIdentity': {
      const linked: UserGoogleIdentityLinked = { type: 'UserGoogleIdentityLinked', data: { user_id: command.identity.user_id, subject: command.subject, linked_at: at } };
      if (state.status === 'none') return [registered(command.identity, at), linked];
      if (state.google_subject === command.subject) return [];
      if (state.google_subject !== null) throw new GoogleIdentityMismatchError();
      return [linked];
    }
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
}

export const userDecider: Decider<UserCommand, UserState, UserEvent> = {
  initialState: initialUserState,
  evolve: evolveUser,
  decide: decideUser,
};

/**
 * A reset token is usable when this user minted it, it has not been spent,
 * no password replacement voided it, and it has not expired (interface.md,
 * "Authentication" 5). The reset handler asks before hashing the new password.
 */
export function assertResetTokenUsable(state: UserState, tokenHash: string, now: Date): asserts state is RegisteredUser {
  if (state.status !== 'registered' || !state.password) throw new InvalidResetTokenError();
  const expiresAt = state.pending_resets[tokenHash];
  if (expiresAt === undefined || new Date(expiresAt).getTime() <= now.getTime()) throw new InvalidResetTokenError();
}

function unexpiredResets(state: RegisteredUser, now: Date): number {
  return Object.values(state.pending_resets).filter((expiresAt) => new Date(expiresAt).getTime() > now.getTime()).length;
}

function registered(identity: UserIdentity, at: string): UserRegistered {
  return { type: 'UserRegistered', data: { user_id: identity.user_id, account_id: identity.account_id, email: identity.email, registered_at: at } };
}
