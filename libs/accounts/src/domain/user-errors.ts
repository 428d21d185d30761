import { DomainError } from '../../../platform/src/errors.js';

/** POST /v2/me/password on a user who has a password: changing it needs the current one. */
export class CurrentPasswordRequiredError extends DomainError {
  readonly code = 'CURRENT_PASSWORD_REQUIRED';
  readonly status = 400;
  override readonly field = 'current_password';
  constructor() {
    super('this user has a password already: send it as current_password to change it');
  }
}

/**
 * A 400 naming the field rather than a 401: the key authenticated the request;
 * a 401 would tell clients to throw the key away.
 */
export class InvalidCurrentPasswordError extends DomainError {
  readonly code = 'INVALID_CURRENT_PASSWORD';
  readonly status = 400;
  override readonly field = 'current_password';
  constructor() {
    super('current_password is not the password of this user');
  }
}

/** One answer for a token that is malformed, unknown, spent, voided or expired: which one is none of the caller's business. */
export class InvalidResetTokenError extends DomainError {
  readonly code = 'INVALID_RESET_TOKEN';
  readonly status = 400;
  override readonly field = 'token';
  constructor() {
    super('the reset token is invalid, used or expired (it lives 30 minutes and works once); ask for a new one');
  }
}

/**
 * The address now belongs to another Google account than the one this user
 * first signed in with (a recycled Workspace address, say): the account
 * stays with the Google account it was linked to.
 */
export class GoogleIdentityMismatchError extends DomainError {
  readonly code = 'GOOGLE_ACCOUNT_MISMATCH';
  readonly status = 403;
  constructor() {
    super('this account signs in with a different Google account; use that one, or sign in with the password');
  }
}

/** A rehash of a user without a password: a defect in the caller, never a client error. */
export class NoPasswordError extends Error {
  constructor() {
    super('the user has no password');
  }
}
