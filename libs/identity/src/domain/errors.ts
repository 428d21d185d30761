import { DomainError } from '../../../platform/src/errors.js';

/** No signing key can be used: none generated yet (the service is still starting), or its private key cannot be opened (DATA_ENCRYPTION_KEY changed). */
export class SigningKeyUnavailableError extends DomainError {
  readonly code = 'SIGNING_KEY_UNAVAILABLE';
  readonly status = 503;
}
