import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DriftStateDoc } from '../../libs/monitoring/src/index.js';
import { collectionName, EmbeddedReadStore, type ReadCollection, type RecordedEvent } from '../../libs/platform/src/index.js';
import { driftStateProjection } from './drift-state.projection.js';

const pseudonym = 'Zk3q9T0aPbW1xYc2LmN4oR5sUv6'; // opaque, as CustomerPseudonyms makes them
const clear = { account_id: 'acct_1', customer_id: 'cust-7', key_id: 'key-1', pseudonym };
const event = (type: string, position: bigint, data: Record<string, unknown>, stream = 'location-acct_1:cust-7'): RecordedEvent => ({
  id: `event-${position}`,
  streamName: stream,
  type,
  data,
  metadata: { schema_version: 1 },
  revision: position - 1n,
  position,
  createdAt: new Date(0),
});

describe('drift_state projection', () => {
  let store: EmbeddedReadStore;
  let collection: ReadCollection<DriftStateDoc>;

  beforeEach(async () => {
    store = await EmbeddedReadStore.open(mkdtempSync(path.join(tmpdir(), 'drift-state-')));
    collection = await store.collection<DriftStateDoc>(collectionName(driftStateProjection), driftStateProjection.indexes);
  });
  afterEach(() => store.close());

  it('applies the same event twice as once: the document and its position do not change', async () => {
    const history = [
      event('ZoneRegistered', 1n, { ...clear, registered_at: '2026-11-22T10:00:00.000Z', sealed: 'zone-sealed' }),
      event('PingRecorded', 2n, { ...clear, ping_id: 'a', recorded_at: '2026-11-22T10:05:00.000Z', sealed: 'ping-a' }),
      event('DriftStarted', 3n, { ...clear, occurred_at: '2026-11-22T10:05:00.000Z', sealed: 'drift' }),
    ];
    for (const each of history) {
      await driftStateProjection.apply(each, collection);
      const once = await collection.getStored(pseudonym);
      await driftStateProjection.apply(each, collection);
      expect(await collection.getStored(pseudonym)).toEqual(once);
    }
    // Redelivering an older event after newer ones changes nothing either.
    const [, ping] = history;
    await driftStateProjection.apply(ping, collection);
    expect(await collection.getStored(pseudonym)).toEqual({
      position: 3n,
      doc: {
        id: pseudonym,
        pseudonym,
        zone: { key_id: 'key-1', sealed: 'zone-sealed', registered_at: '2026-11-22T10:00:00.000Z' },
        drifting: true,
        since: '2026-11-22T10:05:00.000Z',
        latest_ping: { key_id: 'key-1', sealed: 'ping-a', recorded_at: '2026-11-22T10:05:00.000Z' },
      },
    });
  });

  it('keys documents by the pseudonym only, keeps the newest ping, and drops the customer on erasure for good', async () => {
    await driftStateProjection.apply(event('PingRecorded', 1n, { ...clear, ping_id: 'b', recorded_at: '2026-11-22T10:10:00.000Z', sealed: 'ping-b' }), collection);
    await driftStateProjection.apply(event('PingRecorded', 2n, { ...clear, ping_id: 'a', recorded_at: '2026-11-22T10:05:00.000Z', sealed: 'ping-a' }), collection);
    const doc = await collection.get(pseudonym);
    expect(doc?.latest_ping).toMatchObject({ sealed: 'ping-b' });
    expect(JSON.stringify(doc)).not.toContain('cust-7');

    const erased = event('CustomerDataErased', 3n, { account_id: 'acct_1', customer_id: 'cust-7', erased_at: '2026-11-22T11:00:00.000Z', erased_by: 'k', events_erased: 2, pseudonym }, 'consent-acct_1:cust-7');
    await driftStateProjection.apply(erased, collection);
    await driftStateProjection.apply(erased, collection);
    await driftStateProjection.apply(event('PingRecorded', 2n, { ...clear, ping_id: 'a', recorded_at: '2026-11-22T10:05:00.000Z', sealed: 'ping-a' }), collection);
    expect(await collection.get(pseudonym)).toBeUndefined();
  });

  it('skips events stored before pseudonyms: they name no document', async () => {
    const { pseudonym: _none, ...withoutPseudonym } = clear;
    await driftStateProjection.apply(event('PingRecorded', 1n, { ...withoutPseudonym, ping_id: 'a', recorded_at: '2026-11-22T10:05:00.000Z', sealed: 'x' }), collection);
    expect((await collection.find({ index: 'by_customer' })).items).toEqual([]);
  });
});
