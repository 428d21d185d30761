import { InvalidParamError } from '../errors.js';

/**
 * The ids a caller chooses for its own records (customer, device, loan,
 * delivery): one rule and one message wherever they are accepted, so a
 * customer id that monitoring takes, banking and identity take too, and the
 * refusal reads the same (the e2e suites and clients match on it).
 */
export const CALLER_ID = /^[A-Za-z0-9._:-]{1,128}$/;
export const CALLER_ID_RULE = '1-128 characters of A-Z, a-z, 0-9, ".", "_", ":" and "-"';

export function callerIdMessage(field: string): string {
  return `${field} must be ${CALLER_ID_RULE}`;
}

export const CUSTOMER_ID_MESSAGE = callerIdMessage('customer_id');

/** `value` if it is a caller id, else INVALID_PARAM naming `field`. */
export function parseCallerId(value: unknown, field: string): string {
  if (typeof value !== 'string' || !CALLER_ID.test(value)) throw new InvalidParamError(callerIdMessage(field), field);
  return value;
}
