import { DomainError } from '../../../platform/src/errors.js';

/** interface.md, "Authentication" rule 9. */
export class MissingApiKeyError extends DomainError {
  readonly code = 'MISSING_API_KEY';
  readonly status = 401;
  constructor() {
    super('send your API key in the X-API-Key header');
  }
}

export class InvalidApiKeyError extends DomainError {
  readonly code = 'INVALID_API_KEY';
  readonly status = 401;
  constructor() {
    super('the API key is unknown, revoked or expired');
  }
}

/** decisions.md: admin endpoints open only with ADMIN_API_KEY. */
export class AdminKeyRequiredError extends DomainError {
  readonly code = 'ADMIN_KEY_REQUIRED';
  readonly status = 403;
  constructor() {
    super('this endpoint needs the operator key');
  }
}
