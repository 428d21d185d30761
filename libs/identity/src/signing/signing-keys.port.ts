import type { ServedJwk } from '../public/signing-key-ring.js';

/**
 * The service's signing keys as other contexts use them (style.md, "Between
 * contexts"; docs/adr/0065): the JWKS as it stood at an instant, to check
 * what was signed, and a signature with the active key. The identity context
 * publishes and implements it; compliance injects it by `SIGNING_KEYS` for its
 * audit checkpoints and customers' copies, and never reads the signing-keys
 * stream, its events or the sealed private keys.
 */
export interface SigningKeys {
  /**
   * Every public key generated up to `at` (default: now), newest first, as
   * GET /v2/.well-known/jwks.json served them then: retired keys stay, so
   * whatever they signed keeps verifying. Read from the log, not a follower.
   */
  jwksAt(at?: Date): Promise<Jwks>;
  /**
   * A compact JWS (EdDSA; the key's `kid` and `typ` in the protected header)
   * over the JSON text of `document`, with the active key. Fails with
   * SigningKeyUnavailableError (503) while there is none, or when it cannot be
   * opened here (another DATA_ENCRYPTION_KEY).
   */
  signJson(document: unknown, typ: string): Promise<{ kid: string; jws: string }>;
  /** Whether a key to sign with exists, waiting up to `timeoutMs` for one a starting service is generating. */
  whenActive(timeoutMs: number): Promise<boolean>;
}

/** Nest token of the SigningKeys (SigningKeysModule). */
export const SIGNING_KEYS = Symbol('SigningKeys');

/** A JWK Set (RFC 7517) of the service's Ed25519 public keys. */
export interface Jwks {
  keys: ServedJwk[];
}
