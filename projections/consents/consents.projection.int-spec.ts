import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ConsentRecordDoc } from '../../libs/monitoring/src/index.js';
import { collectionName, EmbeddedReadStore, type ReadCollection, type RecordedEvent } from '../../libs/platform/src/index.js';
import { consentsProjection } from './consents.projection.js';

const pseudonym = 'Zk3q9T0aPbW1xYc2LmN4oR5sUv6wXy7z';
const sealed = { key_id: 'key-1', sealed: 'v1.sealed-customer' };
const event = (type: string, position: bigint, data: Record<string, unknown>): RecordedEvent => ({
  id: `event-${position}`,
  streamName: 'consent-acct_1:cust-7',
  type,
  data: { account_id: 'acct_1', customer_id: 'cust-7', ...data },
  metadata: { schema_version: 1 },
  revision: position - 1n,
  position,
  createdAt: new Date(0),
});
const granted = (position: bigint, extra: Record<string, unknown> = {}) =>
  event('ConsentGranted', position, { consent_id: `cr_${position}`, purpose: 'loan_collections', scope: ['location'], granted_at: '2026-11-27T06:00:00.000Z', channel: 'app', pseudonym, customer_sealed: sealed, ...extra });

describe('consents projection', () => {
  let store: EmbeddedReadStore;
  let collection: ReadCollection<ConsentRecordDoc>;
  beforeEach(async () => {
    store = await EmbeddedReadStore.open(mkdtempSync(path.join(tmpdir(), 'consents-')));
    collection = await store.collection<ConsentRecordDoc>(collectionName(consentsProjection), consentsProjection.indexes);
  });
  afterEach(() => store.close());

  it('applies the same event twice as once, and keys the record by pseudonym, never holding the customer id', async () => {
    const history = [granted(1n), event('ConsentRevoked', 2n, { revoked_at: '2026-11-27T07:00:00.000Z', pseudonym })];
    for (const each of history) {
      await consentsProjection.apply(each, collection);
      const once = await collection.getStored(pseudonym);
      await consentsProjection.apply(each, collection);
      expect(await collection.getStored(pseudonym)).toEqual(once);
    }
    await consentsProjection.apply(history[0], collection);
    const doc = await collection.get(pseudonym);
    expect(doc).toMatchObject({ id: pseudonym, status: 'revoked', customer: sealed, consent_id: 'cr_1', channel: 'app', revoked_at: '2026-11-27T07:00:00.000Z' });
    expect(JSON.stringify(doc)).not.toContain('cust-7');
  });

  it('drops the sealed id on erasure and keeps the record; a new grant makes it active again', async () => {
    await consentsProjection.apply(granted(1n), collection);
    await consentsProjection.apply(event('ConsentRevoked', 2n, { revoked_at: '2026-11-27T07:00:00.000Z', pseudonym }), collection);
    await consentsProjection.apply(event('CustomerDataErased', 3n, { erased_at: '2026-11-27T08:00:00.000Z', erased_by: 'k', events_erased: 0, pseudonym }), collection);
    expect(await collection.get(pseudonym)).toMatchObject({ status: 'erased', customer: null, erased_at: '2026-11-27T08:00:00.000Z' });
    await consentsProjection.apply(granted(4n, { customer_sealed: { key_id: 'key-2', sealed: 'v1.other' } }), collection);
    expect(await collection.get(pseudonym)).toMatchObject({ status: 'active', consent_id: 'cr_4', customer: { key_id: 'key-2' }, revoked_at: null, erased_at: null });
  });

  it('skips events without a pseudonym, and builds a legacy record from its ConsentRecordSealed', async () => {
    await consentsProjection.apply(event('ConsentGranted', 1n, { purpose: 'unspecified', scope: ['location'], granted_at: '2026-11-22T00:00:00.000Z' }), collection);
    expect((await collection.find({ index: 'by_account', equals: ['acct_1'] })).items).toEqual([]);
    const record = { consent_id: 'cr_legacy_1', purpose: 'unspecified', scope: ['location'], granted_at: '2026-11-22T00:00:00.000Z', revoked_at: '2026-11-23T00:00:00.000Z', erased_at: '2026-11-24T00:00:00.000Z' };
    await consentsProjection.apply(event('ConsentRecordSealed', 2n, { sealed_at: '2026-11-27T06:00:00.000Z', record, pseudonym, customer_sealed: null }), collection);
    expect((await collection.find({ index: 'by_account_status', equals: ['acct_1', 'erased'] })).items).toEqual([
      expect.objectContaining({ consent_id: 'cr_legacy_1', status: 'erased', customer: null, channel: null, notice: null }),
    ]);
  });
});
