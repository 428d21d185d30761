import type { ConsentState } from '../../domain/consent.js';
import { noticeOf } from '../../domain/consent-receipt.js';
import { consentIdOf } from '../../receipts/consent-receipts.js';

/**
 * GET /v2/consent/status and the records of GET /v2/consents: every field
 * always present, null where the state has none. Grants recorded before
 * notices were captured read `unspecified` (docs/adr/0032).
 */
export function consentStatusView(customerId: string, state: ConsentState, accountId: string) {
  const given = state.status !== 'none';
  return {
    customer_id: customerId,
    status: state.status,
    consent_id: given ? consentIdOf(accountId, customerId, state) : null,
    purpose: given ? state.purpose : null,
    scope: given ? state.scope : null,
    notice: given ? noticeOf(state.notice) : null,
    channel: given ? (state.channel ?? 'unspecified') : null,
    captured_at: given ? (state.captured_at ?? null) : null,
    proof: given ? (state.proof ?? null) : null,
    granted_at: given ? state.granted_at : null,
    revoked_at: state.status === 'revoked' ? state.revoked_at : null,
    /** When the location history was last erased (POST /v2/consent/delete-data), while the consent stays revoked. */
    data_erased_at: state.status === 'revoked' ? (state.erased?.at ?? null) : null,
  };
}
