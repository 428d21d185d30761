import { DomainError } from '../../../platform/src/errors.js';

/**
 * interface.md, "Authentication" 5: "Minimum password length is 8, and common
 * passwords are rejected." The message says why, so the user can pick better.
 */
export class WeakPasswordError extends DomainError {
  readonly code = 'WEAK_PASSWORD';
  readonly status = 400;
  constructor(
    message: string,
    override readonly field: string = 'password',
  ) {
    super(message);
  }
}

/**
 * An identity provider's ID token was refused (POST /v2/auth/google/mobile).
 * The client only ever sees the fixed message; `reason` is for the server log,
 * so the answer does not teach a forger which check failed.
 */
export class InvalidIdTokenError extends DomainError {
  readonly code = 'INVALID_ID_TOKEN';
  readonly status = 401;
  constructor(readonly reason: string) {
    super('the ID token is invalid or expired; sign in with Google again');
  }
}

/**
 * Google's signing keys could not be fetched (network, timeout, a broken key
 * set). Not the caller's fault, so not a 401: a 503 the client may retry.
 */
export class IdentityProviderUnavailableError extends DomainError {
  readonly code = 'SERVICE_UNAVAILABLE';
  readonly status = 503;
  constructor(readonly reason: string) {
    super('Google sign-in cannot be checked right now; try again shortly');
  }
}
