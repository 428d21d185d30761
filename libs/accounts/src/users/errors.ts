import { DomainError } from '../../../platform/src/errors.js';

/**
 * POST /v2/auth/login: one answer, with the same message and after the same
 * hashing work, for an unknown address, a user without a password and a wrong
 * password, so the endpoint does not tell which addresses have accounts.
 */
export class InvalidCredentialsError extends DomainError {
  readonly code = 'INVALID_CREDENTIALS';
  readonly status = 401;
  constructor() {
    super('the e-mail address or the password is wrong');
  }
}

/**
 * POST /v2/auth/google/mobile with a valid ID token whose address no account
 * signed up with. Telling this is safe: only the owner of the address holds
 * such a token.
 */
export class NoAccountForAddressError extends DomainError {
  readonly code = 'ACCOUNT_NOT_FOUND';
  readonly status = 404;
  constructor() {
    super('no account signed up with this Google address; sign up with POST /v2/self/signup first, then sign in with Google');
  }
}

/**
 * Signup does not refuse an address that another account already uses, but an
 * address signs in to one account only: the first that signed up with it.
 */
export class SignInEmailTakenError extends DomainError {
  readonly code = 'EMAIL_IN_USE';
  readonly status = 409;
  constructor() {
    super('another account signed up with this e-mail address first, and sign-in by e-mail belongs to that account');
  }
}

/** GOOGLE_CLIENT_IDS is not set: no ID token can be checked against an audience. */
export class GoogleSignInUnavailableError extends DomainError {
  readonly code = 'GOOGLE_SIGN_IN_UNAVAILABLE';
  readonly status = 503;
  constructor() {
    super('Google sign-in is not configured on this deployment');
  }
}
