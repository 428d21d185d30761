import type { Decider } from '../../../platform/src/commands/decider.js';

/**
 * The service's signing keys (decisions.md: JWS with Ed25519, a JWKS, key
 * rotation). One stream for the whole deployment. The private half of each
 * key is sealed with the platform SecretBox before it reaches a command, so
 * no event, log line or answer ever holds it in the clear; the `kid` is the
 * RFC 7638 thumbprint of the public key.
 *
 * A generated key is the active one at once: the first at first start, each
 * later one by a rotation, which also retires the key before it. A retired
 * key signs nothing more but keeps its place in the JWKS for good, so every
 * certificate and receipt it signed keeps verifying.
 */
export const SIGNING_KEYS_STREAM = 'signing_keys-service';

export interface PublicJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
}

/** A freshly generated key pair, as the decider sees it: public, and private only sealed. */
export interface NewSigningKey {
  kid: string;
  public_jwk: PublicJwk;
  /** The PKCS#8 private key sealed with the SecretBox (associated data: the kid). */
  sealed_private_key: string;
}

export interface SigningKeyGenerated {
  type: 'SigningKeyGenerated';
  data: NewSigningKey & { generated_at: string; reason: 'first_start' | 'rotation' };
}
/** Rotation is an event: `from_kid` retires (signs nothing more, stays in the JWKS), `to_kid` signs from now on. */
export interface SigningKeyRotated {
  type: 'SigningKeyRotated';
  data: { from_kid: string; to_kid: string; rotated_at: string; rotated_by: string };
}
export type SigningKeyEvent = SigningKeyGenerated | SigningKeyRotated;
export const SIGNING_KEY_EVENT_TYPES = ['SigningKeyGenerated', 'SigningKeyRotated'] as const satisfies readonly SigningKeyEvent['type'][];

export interface SigningKeyRecord extends NewSigningKey {
  generated_at: string;
  retired_at: string | null;
}

export interface SigningKeysState {
  keys: SigningKeyRecord[];
  active_kid: string | null;
}
export const initialSigningKeysState: SigningKeysState = { keys: [], active_kid: null };

/**
 * `candidate` is generated (and sealed) outside the decider, after the stream
 * is read; the decider says whether it is needed: a first start that finds a
 * key already there (another process won the race) records nothing.
 */
export type SigningKeyCommand = { type: 'EnsureSigningKey'; candidate?: NewSigningKey } | { type: 'RotateSigningKeys'; rotated_by: string; candidate?: NewSigningKey };

export function evolveSigningKeys(state: SigningKeysState, event: SigningKeyEvent): SigningKeysState {
  switch (event.type) {
    case 'SigningKeyGenerated': {
      const { kid, public_jwk, sealed_private_key, generated_at } = event.data;
      return { keys: [...state.keys, { kid, public_jwk, sealed_private_key, generated_at, retired_at: null }], active_kid: kid };
    }
    case 'SigningKeyRotated': {
      const { from_kid, rotated_at } = event.data;
      return { ...state, keys: state.keys.map((key) => (key.kid === from_kid ? { ...key, retired_at: rotated_at } : key)) };
    }
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

export function decideSigningKeys(command: SigningKeyCommand, state: SigningKeysState, now: Date): SigningKeyEvent[] {
  if (command.type === 'EnsureSigningKey' && state.active_kid !== null) return [];
  const candidate = command.candidate;
  if (!candidate) throw new Error(`${command.type} needs a candidate key`);
  if (state.keys.some((key) => key.kid === candidate.kid)) throw new Error(`key ${candidate.kid} exists already`);
  const at = now.toISOString();
  if (command.type === 'EnsureSigningKey') return [{ type: 'SigningKeyGenerated', data: { ...candidate, generated_at: at, reason: 'first_start' } }];
  const generated: SigningKeyGenerated = { type: 'SigningKeyGenerated', data: { ...candidate, generated_at: at, reason: 'rotation' } };
  if (state.active_kid === null) return [generated];
  return [generated, { type: 'SigningKeyRotated', data: { from_kid: state.active_kid, to_kid: candidate.kid, rotated_at: at, rotated_by: command.rotated_by } }];
}

export const signingKeysDecider: Decider<SigningKeyCommand, SigningKeysState, SigningKeyEvent> = {
  initialState: initialSigningKeysState,
  evolve: evolveSigningKeys,
  decide: decideSigningKeys,
};

/** Whether the command needs a new key pair on this state (so none is generated in vain). */
export function needsCandidate(command: SigningKeyCommand, state: SigningKeysState): boolean {
  return command.type === 'RotateSigningKeys' || state.active_kid === null;
}
