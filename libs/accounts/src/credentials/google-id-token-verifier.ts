import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import type { Clock } from '../../../platform/src/index.js';
import { IdentityProviderUnavailableError, InvalidIdTokenError } from './errors.js';

/** Google's published signing keys for ID tokens (the `jwks_uri` of https://accounts.google.com/.well-known/openid-configuration). */
export const GOOGLE_JWKS_URL = 'https://www.googleapis.com/oauth2/v3/certs';

/** Google issues ID tokens under either spelling. */
export const GOOGLE_ISSUERS: readonly string[] = ['accounts.google.com', 'https://accounts.google.com'];

/** Who signed in with Google (POST /v2/auth/google/mobile). */
export interface GoogleIdentity {
  /** Google's stable account id (`sub`); an account links to this, not to the email, which can change. */
  subject: string;
  /** Verified by Google, as Google spells it. */
  email: string;
  name?: string;
}

export interface GoogleIdTokenVerifierOptions {
  /** OAuth client ids the token may be issued to (`aud`): the server client id a mobile app asks tokens for, and any others. */
  audiences: readonly string[];
  /** Where the signing keys are fetched from; tests point it at a local server. */
  jwksUrl?: string | URL;
  /** Leeway for `exp`, `nbf` and `iat` against a phone's or our clock, in seconds. */
  clockToleranceSeconds?: number;
  /** How long one fetch of the key set may take, in milliseconds. */
  jwksTimeoutMs?: number;
  clock?: Clock;
}

/** ID tokens are about 1 KB; refuse anything far larger before parsing it. */
const MAX_TOKEN_LENGTH = 8192;

/**
 * Verifies a Google ID token offline against Google's signing keys: an RS256
 * signature by a key in the JWKS, `iss` one of {@link GOOGLE_ISSUERS}, `aud`
 * one of the configured client ids, not expired (with a small leeway), and a
 * verified `email`. jose caches the key set and refetches it when a token names
 * an unknown key id (Google rotates keys), at most every 30 s.
 *
 * Any fault in the token is a 401 INVALID_ID_TOKEN with one fixed message;
 * the key set being unreachable is a 503, because the token may be fine.
 */
export class GoogleIdTokenVerifier {
  private readonly audiences: string[];
  private readonly keys: JWTVerifyGetKey;
  private readonly clockToleranceSeconds: number;
  private readonly clock?: Clock;

  constructor(options: GoogleIdTokenVerifierOptions) {
    this.audiences = options.audiences.filter((audience) => typeof audience === 'string' && audience !== '');
    if (this.audiences.length === 0) throw new Error('GoogleIdTokenVerifier needs at least one OAuth client id as audience');
    this.clockToleranceSeconds = options.clockToleranceSeconds ?? 60;
    this.clock = options.clock;
    this.keys = createRemoteJWKSet(new URL(options.jwksUrl ?? GOOGLE_JWKS_URL), { timeoutDuration: options.jwksTimeoutMs ?? 5000 });
  }

  async verify(idToken: unknown): Promise<GoogleIdentity> {
    if (typeof idToken !== 'string' || idToken === '' || idToken.length > MAX_TOKEN_LENGTH) throw new InvalidIdTokenError('malformed');
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(idToken, this.keys, {
        algorithms: ['RS256'],
        issuer: [...GOOGLE_ISSUERS],
        audience: this.audiences,
        clockTolerance: this.clockToleranceSeconds,
        requiredClaims: ['sub', 'exp', 'iat'],
        ...(this.clock ? { currentDate: this.clock.now() } : {}),
      }));
    } catch (error) {
      throw refusal(error);
    }
    const { sub, email, email_verified: emailVerified, name } = payload;
    if (typeof sub !== 'string' || sub === '') throw new InvalidIdTokenError('no subject');
    if (typeof email !== 'string' || !email.includes('@')) throw new InvalidIdTokenError('no email');
    // Strictly the boolean: an unverified address could belong to someone else.
    if (emailVerified !== true) throw new InvalidIdTokenError('email not verified');
    return { subject: sub, email, ...(typeof name === 'string' && name !== '' ? { name } : {}) };
  }
}

/** Sorts a jose failure into "the token is bad" (401) and "we could not check it" (503). */
function refusal(error: unknown): InvalidIdTokenError | IdentityProviderUnavailableError {
  if (error instanceof errors.JWTExpired) return new InvalidIdTokenError('expired');
  if (error instanceof errors.JWTClaimValidationFailed) return new InvalidIdTokenError(`claim ${error.claim}: ${error.reason}`);
  if (error instanceof errors.JWSSignatureVerificationFailed) return new InvalidIdTokenError('bad signature');
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) return new InvalidIdTokenError('unknown signing key');
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) return new InvalidIdTokenError('algorithm not allowed');
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) return new InvalidIdTokenError('malformed');
  // Timeouts, network errors, a non-200 answer, a body that is not a key set.
  const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new IdentityProviderUnavailableError(reason);
}
