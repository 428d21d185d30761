import type { IndexSpec } from '../../../platform/src/index.js';
import type { ConsentChannel, ConsentNotice, ConsentPurpose, SealedCustomer } from '../domain/consent.js';

/** The `consents` read model (GET /v2/consents; docs/adr/0032, "Listing"). */
export const CONSENTS_PROJECTION = 'consents';
export const CONSENTS_VERSION = 1;

export const CONSENT_RECORD_STATUSES = ['active', 'revoked', 'erased'] as const;
export type ConsentRecordStatus = (typeof CONSENT_RECORD_STATUSES)[number];

/**
 * One customer's consent record, as it stands. Keyed by the customer's
 * pseudonym and never holding their id but sealed (`customer`, null once
 * erased), so neither the document, its index entries nor the old copies a
 * store keeps name the customer (ADR 12).
 */
export interface ConsentRecordDoc {
  /** The customer's pseudonym. */
  id: string;
  pseudonym: string;
  account_id: string;
  status: ConsentRecordStatus;
  customer: SealedCustomer | null;
  consent_id: string;
  purpose: ConsentPurpose;
  scope: string[];
  notice: ConsentNotice | null;
  channel: ConsentChannel | null;
  captured_at: string | null;
  granted_at: string;
  revoked_at: string | null;
  erased_at: string | null;
  [field: string]: unknown;
}

/** By account in pseudonym order (stable, opaque), and the same within one status. */
export const CONSENT_RECORD_INDEXES: IndexSpec[] = [
  { name: 'by_account', fields: ['account_id', 'pseudonym'] },
  { name: 'by_account_status', fields: ['account_id', 'status', 'pseudonym'] },
];
