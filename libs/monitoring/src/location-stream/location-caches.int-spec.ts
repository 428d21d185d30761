import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EmbeddedReadStore } from '../../../platform/src/index.js';
import { CustomerPseudonyms } from './customer-pseudonyms.js';
import { LocationCaches, type FiledPing } from './location-caches.js';

/** Ping ids as the sealing makes them: a keyed hash, base64url. */
const pingId = (n: number) => createHash('sha256').update(`ping ${n}`).digest('base64url').slice(0, 32);
const pingsAt = (from: number, count: number, recorded_at = '2026-11-27T09:31:00.000Z'): FiledPing[] => Array.from({ length: count }, (_, i) => ({ ping_id: pingId(from + i), recorded_at }));

describe('LocationCaches: the ping-id index', () => {
  let readStore: EmbeddedReadStore;
  const pseudonyms = new CustomerPseudonyms(Buffer.alloc(32, 7));
  const customer = pseudonyms.of('acct_a', 'c1');

  beforeEach(async () => {
    readStore = await EmbeddedReadStore.open(path.join(mkdtempSync(path.join(tmpdir(), 'location-caches-')), 'read-models'));
  });
  afterEach(async () => {
    await readStore.close();
  });

  it('knows every filed ping of a bucket, and no other', async () => {
    const caches = new LocationCaches(readStore, pseudonyms);
    const filed = pingsAt(0, 200);
    await caches.file(customer, 1n, filed.slice(0, 120));
    await caches.file(customer, 2n, filed.slice(120));
    const asked = [...filed, ...pingsAt(1000, 50)];
    const known = await caches.known(customer, asked, '2026-11-27T09:59:00.000Z');
    expect([...known].sort()).toEqual(filed.map((ping) => ping.ping_id).sort());
    // Another customer's pings are not this one's.
    expect((await caches.known(pseudonyms.of('acct_a', 'c2'), filed, '2026-11-27T09:59:00.000Z')).size).toBe(0);
  });

  it("spreads a bucket's ids over documents, so filing a ping rewrites a part of them", async () => {
    const caches = new LocationCaches(readStore, pseudonyms);
    await caches.file(customer, 1n, pingsAt(0, 800));
    const docs = await readStore.collection<{ id: string; pseudonym: string; ids: string[] }>('location_ping_ids_v3');
    const page = await docs.find({ index: 'by_pseudonym', equals: [customer], limit: 100 });
    expect(page.items.length).toBeGreaterThanOrEqual(12);
    expect(page.items.reduce((sum, doc) => sum + doc.ids.length, 0)).toBe(800);
    // 800 ids over 16 shards: 50 each on average, and no shard near the whole bucket.
    expect(Math.max(...page.items.map((doc) => doc.ids.length))).toBeLessThan(120);
  });

  it('still knows pings filed in the one document per bucket of before the shards', async () => {
    const caches = new LocationCaches(readStore, pseudonyms);
    const old = pingsAt(0, 5);
    // As the index was written before: one document named by (customer, bucket).
    const id = pseudonyms.keyed('ping-ids', customer, '2026-11-27T09:3');
    const docs = await readStore.collection<{ id: string; pseudonym: string; ids: string[] }>('location_ping_ids_v3', [{ name: 'by_pseudonym', fields: ['pseudonym'] }]);
    await docs.apply(id, 1n, () => ({ id, pseudonym: customer, ids: old.map((ping) => ping.ping_id) }));
    const known = await caches.known(customer, [...old, ...pingsAt(100, 3)], '2026-11-27T09:59:00.000Z');
    expect([...known].sort()).toEqual(old.map((ping) => ping.ping_id).sort());
    // And an erasure takes them with the sharded ones.
    await caches.file(customer, 2n, pingsAt(200, 40));
    await caches.purge(customer);
    expect((await caches.known(customer, [...old, ...pingsAt(200, 40)], '2026-11-27T09:59:00.000Z')).size).toBe(0);
  });
});
