import type { CustomerConsent, CustomerSighting, KnownPosition } from '../../../monitoring/src/index.js';

/**
 * What banking reads of a borrower comes from the monitoring context's
 * CustomerLocations port (consent, last known position, drift): positions
 * are never copied into banking's own events or read models, so an erasure
 * takes them away here too (ADR 12).
 */
export type { KnownPosition };
export type BorrowerSighting = CustomerSighting;

/** True when the customer's standing consent is for loan collections. */
export function allowsCollections(consent: CustomerConsent): boolean {
  return consent.status === 'granted' && consent.purpose === 'loan_collections';
}
