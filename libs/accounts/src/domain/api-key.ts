import { createHash } from 'node:crypto';
import type { Decider } from '../../../platform/src/commands/decider.js';
import { DomainError } from '../../../platform/src/errors.js';

/**
 * The API key aggregate (interface.md, "API key states"): issued → active,
 * then revoked by rotation, deletion or the operator. A pure decider; the
 * command pipeline loads the key's stream, decides, and appends with the
 * expected revision.
 */

export type Tier = 'free' | 'basic' | 'pro' | 'enterprise';
export const TIERS: readonly Tier[] = ['free', 'basic', 'pro', 'enterprise'];

/**
 * `account`: a signup key; `legacy`: issued by the operator without an account;
 * `personal`: a per-user token from /v2/auth/login or /v2/auth/google/mobile
 * (an X-API-Key value scoped to one user, with an expiry).
 */
export type KeyKind = 'account' | 'legacy' | 'personal';

export interface ApiKeyIssued {
  type: 'ApiKeyIssued';
  data: {
    key_id: string;
    /** SHA-256 of the key; the key itself is never stored. */
    key_hash: string;
    key_prefix: string;
    kind: KeyKind;
    account_id: string | null;
    name: string;
    email: string | null;
    tier: Tier;
    issued_at: string;
    expires_at: string | null;
    /** The key this one replaces, when issued by rotation. */
    rotated_from: string | null;
    /** For personal tokens: the user they are scoped to (absent on other kinds and on events stored before it existed). */
    user_id?: string | null;
  };
}

export interface ApiKeyRevoked {
  type: 'ApiKeyRevoked';
  data: {
    key_id: string;
    reason: 'rotated' | 'deleted' | 'operator';
    revoked_at: string;
    /** The key issued in its place, for a rotation. */
    replaced_by: string | null;
  };
}

export type ApiKeyEvent = ApiKeyIssued | ApiKeyRevoked;
export const API_KEY_EVENT_TYPES = ['ApiKeyIssued', 'ApiKeyRevoked'] as const;

export type ApiKeyState =
  | { status: 'none' }
  | { status: 'active'; issued: ApiKeyIssued['data'] }
  | { status: 'revoked'; issued: ApiKeyIssued['data']; revoked: ApiKeyRevoked['data'] };

export const initialApiKeyState: ApiKeyState = { status: 'none' };

export function apiKeyStream(keyId: string): string {
  return `api_key-${keyId}`;
}

/** What names the key-id derivation, so the same hash under another purpose gives another value. */
const KEY_ID_NAME_SPACE = 'location-api key id v1\0';

/**
 * A key's id, derived from its hash (docs/adr/0057): an api process that has
 * not heard of a key yet (issued through another process a moment ago) finds
 * its stream, `api_key-<id>`, from the presented key alone, one read by name,
 * instead of answering 401 until its key directory catches up with the log.
 * An RFC 9562 UUIDv8 made from SHA-256, as its name-based example (appendix
 * B.2): the first 128 bits of SHA-256(name space ‖ hash) with the version and
 * variant bits set. The id tells nothing the hash stored beside it in the
 * same event does not, and neither tells the key.
 */
export function keyIdFor(keyHash: string): string {
  const bytes = createHash('sha256').update(KEY_ID_NAME_SPACE, 'utf8').update(keyHash, 'utf8').digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x80;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function evolveApiKey(state: ApiKeyState, event: ApiKeyEvent): ApiKeyState {
  switch (event.type) {
    case 'ApiKeyIssued':
      return { status: 'active', issued: event.data };
    case 'ApiKeyRevoked':
      return state.status === 'none' ? state : { status: 'revoked', issued: state.issued, revoked: event.data };
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

export interface IssueApiKey {
  type: 'IssueApiKey';
  data: Omit<ApiKeyIssued['data'], 'issued_at'>;
}
export interface RevokeApiKey {
  type: 'RevokeApiKey';
  data: { key_id: string; reason: ApiKeyRevoked['data']['reason']; replaced_by: string | null };
}
export type ApiKeyCommand = IssueApiKey | RevokeApiKey;

/** A key id issued twice: ids are derived from 256-bit random keys, so this is a defect, never a client error. */
export class KeyAlreadyIssuedError extends Error {}

/**
 * The key is revoked already: another request (a rotation, a sign-out, a
 * password reset) got there first. The API's one answer for "changed
 * concurrently": 409 CONCURRENCY_CONFLICT.
 */
export class KeyNotActiveError extends DomainError {
  readonly code = 'CONCURRENCY_CONFLICT';
  readonly status = 409;
  constructor() {
    super('the key was rotated or revoked by another request at the same moment; use the key you now hold');
  }
}

function decideApiKey(command: ApiKeyCommand, state: ApiKeyState, now: Date): ApiKeyEvent[] {
  switch (command.type) {
    case 'IssueApiKey':
      if (state.status !== 'none') throw new KeyAlreadyIssuedError(`key ${command.data.key_id} exists`);
      return [{ type: 'ApiKeyIssued', data: { ...command.data, issued_at: now.toISOString() } }];
    case 'RevokeApiKey':
      if (state.status !== 'active') throw new KeyNotActiveError();
      return [{ type: 'ApiKeyRevoked', data: { ...command.data, revoked_at: now.toISOString() } }];
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
}

export const apiKeyDecider: Decider<ApiKeyCommand, ApiKeyState, ApiKeyEvent> = {
  initialState: initialApiKeyState,
  evolve: evolveApiKey,
  decide: decideApiKey,
};

/** Expired keys answer INVALID_API_KEY like revoked ones (interface.md, "API key states"). */
export function isUsable(state: ApiKeyState, now: Date): boolean {
  if (state.status !== 'active') return false;
  return state.issued.expires_at === null || new Date(state.issued.expires_at).getTime() > now.getTime();
}
