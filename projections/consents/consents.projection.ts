import {
  CONSENT_RECORD_INDEXES,
  CONSENTS_PROJECTION,
  CONSENTS_VERSION,
  type ConsentGranted,
  type ConsentRecordDoc,
  type ConsentRecordSealed,
  type ConsentRevoked,
  type CustomerDataErased,
} from '../../libs/monitoring/src/index.js';
import type { Projection, RecordedEvent } from '../../libs/platform/src/index.js';

/**
 * Every account's consent records, one per customer (GET /v2/consents;
 * docs/adr/0032, "Listing"). Documents are keyed by the customer's pseudonym,
 * which the consent events carry, and hold the customer id only as the events
 * sealed it: the list opens it with the customer's record key, and an erasure
 * destroys that key before its CustomerDataErased drops the sealed copy here.
 * Events stored before records were sealed carry no pseudonym and are skipped;
 * the stream's ConsentRecordSealed (the start-up backfill) restates its record.
 */
export const consentsProjection: Projection<ConsentRecordDoc> = {
  name: CONSENTS_PROJECTION,
  version: CONSENTS_VERSION,
  streamPrefixes: ['consent-'],
  handles: ['ConsentGranted', 'ConsentRevoked', 'CustomerDataErased', 'ConsentRecordSealed'],
  indexes: CONSENT_RECORD_INDEXES,
  async apply(event, collection) {
    const pseudonym = event.data.pseudonym;
    if (typeof pseudonym !== 'string') return;
    await collection.apply(pseudonym, event.position, (current) => evolve(current, event, pseudonym) ?? null);
  },
};

function evolve(doc: ConsentRecordDoc | undefined, event: RecordedEvent, pseudonym: string): ConsentRecordDoc | undefined {
  switch (event.type) {
    case 'ConsentGranted': {
      const data = event.data as unknown as ConsentGranted['data'];
      if (!data.consent_id) return doc;
      return {
        id: pseudonym,
        pseudonym,
        account_id: data.account_id,
        status: 'active',
        customer: data.customer_sealed ?? null,
        consent_id: data.consent_id,
        purpose: data.purpose,
        scope: [...data.scope],
        notice: data.notice ?? null,
        channel: data.channel ?? null,
        captured_at: data.captured_at ?? null,
        granted_at: data.granted_at,
        revoked_at: null,
        erased_at: null,
      };
    }
    case 'ConsentRevoked': {
      const data = event.data as unknown as ConsentRevoked['data'];
      return doc && doc.status === 'active' ? { ...doc, status: 'revoked', revoked_at: data.revoked_at } : doc;
    }
    case 'CustomerDataErased': {
      const data = event.data as unknown as CustomerDataErased['data'];
      return doc ? { ...doc, status: 'erased', customer: null, erased_at: data.erased_at } : doc;
    }
    case 'ConsentRecordSealed': {
      const { account_id, customer_sealed, record } = event.data as unknown as ConsentRecordSealed['data'];
      return {
        id: pseudonym,
        pseudonym,
        account_id,
        status: record.erased_at ? 'erased' : record.revoked_at ? 'revoked' : 'active',
        customer: record.erased_at ? null : customer_sealed,
        consent_id: record.consent_id,
        purpose: record.purpose,
        scope: [...record.scope],
        notice: record.notice ?? null,
        channel: record.channel ?? null,
        captured_at: record.captured_at ?? null,
        granted_at: record.granted_at,
        revoked_at: record.revoked_at,
        erased_at: record.erased_at,
      };
    }
    default:
      return doc;
  }
}
