import { DomainError } from '../../../platform/src/errors.js';

/**
 * Unknown, already used and expired codes get this one answer, word for word
 * (issue #18: "no oracle"), so a guesser learns nothing from which it was.
 */
export class ShareCodeInvalidError extends DomainError {
  readonly code = 'SHARE_CODE_INVALID';
  readonly status = 404;
  override readonly field = 'code';
  constructor() {
    super('this share code is unknown, already used or expired; ask for a new one');
  }
}

/** DELETE /v2/locator/share-token/{shareId} for a code that is not the caller's, or no longer live. */
export class ShareCodeNotFoundError extends DomainError {
  readonly code = 'SHARE_CODE_NOT_FOUND';
  readonly status = 404;
  override readonly field = 'shareId';
  constructor() {
    super('no unused share code with this id is yours to cancel');
  }
}

/** A person redeeming the code they minted themselves. */
export class OwnShareCodeError extends DomainError {
  readonly code = 'OWN_SHARE_CODE';
  readonly status = 400;
  override readonly field = 'code';
  constructor() {
    super('this is your own share code: give it to the person who should see your location');
  }
}

export class AlreadyPairedError extends DomainError {
  readonly code = 'ALREADY_PAIRED';
  readonly status = 409;
  override readonly details: Readonly<{ pairing_id: string }>;
  constructor(pairingId: string) {
    super('you can already see this person; the code stays unused (they can revoke the old pairing and share again to change its expiry)');
    this.details = { pairing_id: pairingId };
  }
}

/** The caps that keep every list short (issue #18, "limits on list lengths"). */
export class LocatorLimitError extends DomainError {
  readonly status = 409;
  override readonly details: Readonly<{ max: number }>;
  constructor(
    readonly code: 'SHARE_CODE_LIMIT_REACHED' | 'VIEWER_LIMIT_REACHED' | 'WATCHING_LIMIT_REACHED',
    max: number,
    message: string,
  ) {
    super(message);
    this.details = { max };
  }
}

/** A pairing that is not the caller's, was revoked, has expired, or never existed: one answer. */
export class PairingNotFoundError extends DomainError {
  readonly code = 'PAIRING_NOT_FOUND';
  readonly status = 404;
  override readonly field = 'pairingId';
  constructor() {
    super('no active pairing with this id is yours to end');
  }
}

/**
 * GET /v2/locator/{targetId}/location for a target the caller may not see:
 * never paired, revoked, expired, or no such account. One answer for all of
 * them, so it says nothing about whether the target exists.
 */
export class LocationNotSharedError extends DomainError {
  readonly code = 'LOCATION_NOT_SHARED';
  readonly status = 404;
  override readonly field = 'targetId';
  constructor() {
    super('no active share lets you see this location');
  }
}

/** The locator acts for a signed-in person (a personal token from /v2/auth/login), not for an integration's key (docs/adr/0020). */
export class PersonalTokenRequiredError extends DomainError {
  readonly code = 'PERSONAL_TOKEN_REQUIRED';
  readonly status = 403;
  constructor() {
    super('the partner locator needs a signed-in person: send a personal token from POST /v2/auth/login or /v2/auth/google/mobile');
  }
}

/** interface.md, "Errors": RATE_LIMITED, here for too many wrong share codes; the answer carries Retry-After. */
export class RedeemThrottledError extends DomainError {
  readonly code = 'RATE_LIMITED';
  readonly status = 429;
  constructor(override readonly retryAfterSeconds: number) {
    super(`too many wrong share codes; try again in ${retryAfterSeconds} s`);
  }
}
