import type { ConsentState } from '../../domain/consent.js';

/** GET /v2/consent/status: every field always present, null where the state has none. */
export function consentStatusView(customerId: string, state: ConsentState) {
  return {
    customer_id: customerId,
    status: state.status,
    purpose: state.status === 'none' ? null : state.purpose,
    scope: state.status === 'none' ? null : state.scope,
    granted_at: state.status === 'none' ? null : state.granted_at,
    revoked_at: state.status === 'revoked' ? state.revoked_at : null,
    /** When the location history was last erased (POST /v2/consent/delete-data), while the consent stays revoked. */
    data_erased_at: state.status === 'revoked' ? (state.erased?.at ?? null) : null,
  };
}
