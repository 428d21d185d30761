import { DRIFT_STATE_PROJECTION, DRIFT_STATE_VERSION, type DriftStateDoc, type SealedLocationData } from '../../libs/monitoring/src/index.js';
import type { Projection, RecordedEvent } from '../../libs/platform/src/index.js';

/**
 * The current drift state of every monitored customer (GET /v2/monitoring/drift).
 * It copies sealed location fields as they are stored and never holds a key:
 * the query opens them with the customer's key, and once an erasure destroyed
 * that key, nothing here is readable even before CustomerDataErased deletes the document.
 * Documents are keyed by the customer's pseudonym, which the location codec
 * stores in the clear beside the sealed fields (and the erasure record
 * carries); an event stored before pseudonyms existed names no document and is
 * skipped.
 */
export const driftStateProjection: Projection<DriftStateDoc> = {
  name: DRIFT_STATE_PROJECTION,
  version: DRIFT_STATE_VERSION,
  streamPrefixes: ['location-', 'consent-'],
  handles: ['ZoneRegistered', 'PingRecorded', 'DriftStarted', 'DriftEnded', 'CustomerDataErased'],
  indexes: [{ name: 'by_customer', fields: ['pseudonym'] }],
  // One write, made first (the document is evolved inside it): a batch of events per commit on the embedded store (issue 31).
  pipelined: true,
  async apply(event, collection) {
    const data = event.data as Partial<SealedLocationData> & Record<string, unknown>;
    const pseudonym = data.pseudonym;
    if (typeof pseudonym !== 'string') return;
    const fresh = (): DriftStateDoc => ({ id: pseudonym, pseudonym, zone: null, drifting: false, since: null, latest_ping: null });
    await collection.apply(pseudonym, event.position, (current) => evolve(current ?? fresh(), event, data));
  },
};

function evolve(doc: DriftStateDoc, event: RecordedEvent, data: Partial<SealedLocationData> & Record<string, unknown>): DriftStateDoc | null {
  const sealed = () => ({ key_id: String(data.key_id), sealed: String(data.sealed) });
  switch (event.type) {
    case 'ZoneRegistered': {
      const registered_at = String(data.registered_at);
      return { ...doc, zone: { ...sealed(), registered_at }, drifting: false, since: registered_at };
    }
    case 'PingRecorded': {
      const recorded_at = String(data.recorded_at);
      if (doc.latest_ping && doc.latest_ping.recorded_at > recorded_at) return doc;
      return { ...doc, latest_ping: { ...sealed(), recorded_at } };
    }
    case 'DriftStarted':
      return { ...doc, drifting: true, since: String(data.occurred_at) };
    case 'DriftEnded':
      return { ...doc, drifting: false, since: String(data.occurred_at) };
    case 'CustomerDataErased':
      return null;
    default:
      return doc;
  }
}
