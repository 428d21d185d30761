import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ConsentDoc } from '../../libs/monitoring/src/index.js';
import { collectionName, EmbeddedReadStore, type RecordedEvent } from '../../libs/platform/src/index.js';
import { consentsProjection } from './consents.projection.js';

const event = (type: string, position: bigint, data: Record<string, unknown>, customerId = 'cust-1'): RecordedEvent => ({
  id: `event-${position}`,
  streamName: `consent-acct_1:${customerId}`,
  type,
  data: { account_id: 'acct_1', customer_id: customerId, ...data },
  metadata: { schema_version: 1 },
  revision: position,
  position,
  createdAt: new Date(),
});

describe('consents projection', () => {
  it('keeps one document per customer with the folded consent; a replayed event changes nothing', async () => {
    const store = await EmbeddedReadStore.open(mkdtempSync(path.join(tmpdir(), 'consents-')));
    try {
      const collection = await store.collection<ConsentDoc>(collectionName(consentsProjection), consentsProjection.indexes);
      const granted = event('ConsentGranted', 1n, { purpose: 'unspecified', scope: ['location'], granted_at: '2026-11-22T00:00:00.000Z', channel: 'ussd', consent_id: 'cr_1' });
      await consentsProjection.apply(granted, collection);
      await consentsProjection.apply(event('ConsentRevoked', 2n, { revoked_at: '2026-11-22T01:00:00.000Z' }), collection);
      const stored = await collection.getStored('acct_1:cust-1');
      await consentsProjection.apply(granted, collection);
      expect(await collection.getStored('acct_1:cust-1')).toEqual(stored);
      expect(stored?.doc.state).toMatchObject({ status: 'revoked', channel: 'ussd', consent_id: 'cr_1', revoked_at: '2026-11-22T01:00:00.000Z' });
      await consentsProjection.apply(event('ConsentGranted', 3n, { purpose: 'fleet_dispatch', scope: ['location'], granted_at: '2026-11-22T02:00:00.000Z' }, 'cust-0'), collection);
      expect((await collection.find({ index: 'by_account', equals: ['acct_1'] })).items.map((doc) => doc.customer_id)).toEqual(['cust-0', 'cust-1']);
    } finally {
      await store.close();
    }
  });
});
