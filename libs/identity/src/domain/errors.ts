import { DomainError } from '../../../platform/src/errors.js';

/** No signing key can be used: none generated yet (the service is still starting), or its private key cannot be opened (DATA_ENCRYPTION_KEY changed). */
export class SigningKeyUnavailableError extends DomainError {
  readonly code = 'SIGNING_KEY_UNAVAILABLE';
  readonly status = 503;
}

/**
 * A delivery confirmed again after its customer's data was erased (ADR 0054):
 * the first receipt was sealed under the destroyed key, so it cannot be
 * answered again, and a second one is never signed. The receipt as issued
 * still verifies with the JWKS.
 */
export class DeliveryErasedError extends DomainError {
  readonly code = 'DELIVERY_ERASED';
  readonly status = 410;
  override readonly field = 'delivery_id';

  constructor(deliveryId: string) {
    super(`delivery ${deliveryId} was confirmed before and its customer's location data has since been erased: its receipt can no longer be answered (the receipt as issued still verifies)`);
  }
}
