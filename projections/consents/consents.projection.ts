import { CONSENT_EVENT_TYPES, CONSENTS_INDEXES, CONSENTS_PROJECTION, CONSENTS_VERSION, evolveConsent, initialConsentState, type ConsentDoc, type ConsentEvent } from '../../libs/monitoring/src/index.js';
import type { Projection } from '../../libs/platform/src/index.js';

/**
 * Every account's consents (GET /v2/consents), one document per customer,
 * folded with the consent decider's `evolve`. Consent history is never erased
 * (ADR 12: an erasure removes location data, not the record of consent).
 */
export const consentsProjection: Projection<ConsentDoc> = {
  name: CONSENTS_PROJECTION,
  version: CONSENTS_VERSION,
  streamPrefixes: ['consent-'],
  handles: CONSENT_EVENT_TYPES,
  indexes: CONSENTS_INDEXES,
  async apply(event, collection) {
    const { account_id, customer_id } = event.data as { account_id?: unknown; customer_id?: unknown };
    if (typeof account_id !== 'string' || typeof customer_id !== 'string') return;
    const id = `${account_id}:${customer_id}`;
    await collection.apply(id, event.position, (current) => {
      const state = evolveConsent(current?.state ?? initialConsentState, { type: event.type, data: event.data } as ConsentEvent);
      return state.status === 'none' ? null : { id, account_id, customer_id, state };
    });
  },
};
