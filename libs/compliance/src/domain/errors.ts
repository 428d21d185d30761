import { DomainError } from '../../../platform/src/errors.js';

/** A banking account's compliance staff replay their own account only (issue 30); another account's id is refused, whether or not it exists. */
export class OtherAccountForbiddenError extends DomainError {
  readonly code = 'ACCOUNT_MISMATCH';
  readonly status = 403;
  override readonly field = 'account_id';
  constructor() {
    super("a key replays only its own account's history; account_id names another account");
  }
}

/** A customer's copy is costly (every record about them, signed): a few per account per hour (issue 30). */
export class CustomerCopyRateLimitedError extends DomainError {
  readonly code = 'RATE_LIMITED';
  readonly status = 429;
  /** In the envelope too (`error.details.retry_after_s`), beside the Retry-After header, for clients that read only the body. */
  override readonly details: Readonly<Record<string, unknown>>;
  constructor(override readonly retryAfterSeconds: number) {
    super(`too many access requests from this account; try again in ${retryAfterSeconds} s`);
    this.details = { retry_after_s: retryAfterSeconds };
  }
}
