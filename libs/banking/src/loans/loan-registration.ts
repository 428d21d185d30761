import { parseCustomerId } from '../../../monitoring/src/index.js';
import { InvalidParamError } from '../../../platform/src/index.js';
import { MAX_COLLECTION_DAYS, parseLoanId, type RegisterLoan } from '../domain/loan.js';
import { parseCollectionZone } from '../zones/collection-zone.js';

/**
 * One registration from its JSON, validated field by field: the single
 * endpoint gets it from its DTO, the bulk one per item (a bad item is that
 * item's outcome, never the batch's). `prefix` names the item's fields
 * (`loans[3].zone.radius_m`).
 */
export function loanRegistration(accountId: string, raw: unknown, prefix = ''): RegisterLoan {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new InvalidParamError(`${prefix || 'the body'} must be an object`, prefix || 'body');
  const item = raw as Record<string, unknown>;
  const extra = Object.keys(item).find((key) => !['loan_id', 'customer_id', 'zone', 'expected_collection_days'].includes(key));
  if (extra !== undefined) throw new InvalidParamError(`${prefix}${extra} is not a field of a loan registration`, `${prefix}${extra}`);
  const loan_id = parseLoanId(item.loan_id, `${prefix}loan_id`);
  let customer_id: string;
  try {
    customer_id = parseCustomerId(item.customer_id);
  } catch (error) {
    if (error instanceof InvalidParamError) throw new InvalidParamError(error.message, `${prefix}customer_id`);
    throw error;
  }
  const days = item.expected_collection_days;
  if (days !== undefined && days !== null && (typeof days !== 'number' || !Number.isInteger(days) || days < 1 || days > MAX_COLLECTION_DAYS)) {
    throw new InvalidParamError(`expected_collection_days must be a whole number of days from 1 to ${MAX_COLLECTION_DAYS}`, `${prefix}expected_collection_days`);
  }
  const { zone, anchor } = parseCollectionZone(item.zone, `${prefix}zone`);
  return { type: 'RegisterLoan', account_id: accountId, loan_id, terms: { customer_id, zone, anchor, expected_collection_days: (days as number | undefined) ?? null } };
}
