import type { ConsentState } from '../domain/consent.js';
import { noticeOf } from '../domain/consent-receipt.js';
import { consentIdOf } from '../receipts/consent-receipts.js';

/**
 * GET /v2/consent/status and the records of GET /v2/consents: every field
 * always present, null where the state has none. Grants recorded before
 * notices were captured read `unspecified` (docs/adr/0032).
 *
 * Once the customer's data was erased (POST /v2/consent/delete-data) the
 * status answers the erasure and what the customer had agreed to (purpose,
 * scope) and when (granted, revoked, erased), nothing of the capture that
 * could link the record to the customer or to a receipt naming them:
 * `consent_id` (the receipts' consentReceiptID), `notice`, `channel`,
 * `captured_at` and `proof` read null (docs/adr/0055).
 */
export function consentStatusView(customerId: string, state: ConsentState, accountId: string) {
  const given = state.status !== 'none';
  const erased = state.status === 'revoked' && state.erased !== undefined;
  return {
    customer_id: customerId,
    status: state.status,
    consent_id: given && !erased ? consentIdOf(accountId, customerId, state) : null,
    purpose: given ? state.purpose : null,
    scope: given ? state.scope : null,
    notice: given && !erased ? noticeOf(state.notice) : null,
    channel: given && !erased ? (state.channel ?? 'unspecified') : null,
    captured_at: given && !erased ? (state.captured_at ?? null) : null,
    proof: given && !erased ? (state.proof ?? null) : null,
    granted_at: given ? state.granted_at : null,
    revoked_at: state.status === 'revoked' ? state.revoked_at : null,
    /** When the location history was last erased (POST /v2/consent/delete-data), while the consent stays revoked. */
    data_erased_at: state.status === 'revoked' ? (state.erased?.at ?? null) : null,
  };
}
