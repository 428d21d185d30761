import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { GeofenceDoc } from '../../libs/monitoring/src/index.js';
import { collectionName, EmbeddedReadStore, type RecordedEvent } from '../../libs/platform/src/index.js';
import { geofencesProjection } from './geofences.projection.js';

const created = (fenceId: string, position: bigint, customerId: string | null): RecordedEvent => ({
  id: `event-${position}`,
  streamName: `geofence-acct_1:${fenceId}`,
  type: 'GeofenceCreated',
  data: {
    account_id: 'acct_1',
    fence_id: fenceId,
    fence_type: 'polygon',
    name: 'market',
    customer_id: customerId,
    loan_id: null,
    center: null,
    radius_m: null,
    polygon: { type: 'Polygon', coordinates: [[[-0.22, 5.54], [-0.2, 5.54], [-0.2, 5.56], [-0.22, 5.54]]] },
    created_at: `2026-11-22T10:00:0${position}.000Z`,
  },
  metadata: { schema_version: 1 },
  revision: 0n,
  position,
  createdAt: new Date(),
});

const deleted = (fenceId: string, position: bigint): RecordedEvent => ({
  id: `event-${position}`,
  streamName: `geofence-acct_1:${fenceId}`,
  type: 'GeofenceDeleted',
  data: { account_id: 'acct_1', fence_id: fenceId, deleted_at: '2026-11-22T11:00:00.000Z' },
  metadata: { schema_version: 1 },
  revision: 1n,
  position,
  createdAt: new Date(),
});

describe('geofences projection', () => {
  it('keeps one document per active fence with its cover; replays change nothing and cannot resurrect a deleted fence', async () => {
    const store = await EmbeddedReadStore.open(mkdtempSync(path.join(tmpdir(), 'geofences-')));
    try {
      const collection = await store.collection<GeofenceDoc>(collectionName(geofencesProjection), geofencesProjection.indexes);
      const first = created('gf_a', 1n, 'cust-1');
      await geofencesProjection.apply(first, collection);
      const stored = await collection.getStored('gf_a');
      await geofencesProjection.apply(first, collection);
      expect(await collection.getStored('gf_a')).toEqual(stored);
      expect(stored?.doc).toMatchObject({ id: 'gf_a', account_id: 'acct_1', fence_type: 'polygon', customer_id: 'cust-1', name: 'market' });
      expect(stored?.doc.cell_count).toBeGreaterThan(0);
      expect(stored?.doc.area_m2).toBeGreaterThan(2_000_000);

      await geofencesProjection.apply(created('gf_b', 2n, null), collection);
      const listed = await collection.find({ index: 'by_account', equals: ['acct_1'], direction: 'desc' });
      expect(listed.items.map((doc) => doc.id)).toEqual(['gf_b', 'gf_a']);
      const forCustomer = await collection.find({ index: 'by_account_customer', equals: ['acct_1', 'cust-1'] });
      expect(forCustomer.items.map((doc) => doc.id)).toEqual(['gf_a']);

      await geofencesProjection.apply(deleted('gf_a', 3n), collection);
      await geofencesProjection.apply(first, collection);
      expect(await collection.get('gf_a')).toBeUndefined();
      expect((await collection.find({ index: 'by_created' })).items.map((doc) => doc.id)).toEqual(['gf_b']);
    } finally {
      await store.close();
    }
  });
});
