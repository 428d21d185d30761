import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { link } from '../../libs/audit/src/index.js';
import { collectionName, EmbeddedReadStore, type RecordedEvent } from '../../libs/platform/src/index.js';
import { accessLogProjection, type AccessLogDoc } from './access-log.projection.js';

const recorded = (position: bigint): RecordedEvent => {
  const [event] = link(
    [{ account_id: 'acct_1', key_prefix: 'abcd1234…', principal_kind: 'key', method: 'GET', path: '/v2/me', status: 200, client_ip: '198.51.100.4', at: '2026-11-22T10:00:00.000Z', request_id: 'r1' }],
    undefined,
  );
  return { id: `event-${position}`, streamName: 'access_log-acct_1', type: event.type, data: { ...event.data }, metadata: { schema_version: 1 }, revision: 0n, position, createdAt: new Date() };
};

describe('access_log projection', () => {
  it('writes one document per access event, and the same event twice changes nothing', async () => {
    const store = await EmbeddedReadStore.open(mkdtempSync(path.join(tmpdir(), 'access-log-')));
    try {
      const collection = await store.collection<AccessLogDoc>(collectionName(accessLogProjection), accessLogProjection.indexes);
      const event = recorded(5n);
      await accessLogProjection.apply(event, collection);
      const first = await collection.getStored(event.id);
      await accessLogProjection.apply(event, collection);
      expect(await collection.getStored(event.id)).toEqual(first);
      expect(first?.doc).toMatchObject({ account_id: 'acct_1', path: '/v2/me', status: 200, client_ip: '198.51.100.4', seq: 0 });
      const page = await collection.find({ index: 'by_account_time', equals: ['acct_1'], range: { gte: '2026-11-22T00:00:00.000Z' } });
      expect(page.items.map((item) => item.id)).toEqual([event.id]);
    } finally {
      await store.close();
    }
  });
});
