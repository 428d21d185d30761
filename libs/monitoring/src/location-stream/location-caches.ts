import type { IndexSpec, ReadCollection, ReadStore } from '../../../platform/src/index.js';
import type { CustomerPseudonyms } from './customer-pseudonyms.js';

/** A ping's identity and when it was taken: what the ping-id index files. */
export interface FiledPing {
  ping_id: string;
  recorded_at: string;
}

/**
 * Ids of a customer's stored pings recorded in one ten-minute bucket, one of
 * its `SHARDS` shards: what makes a replayed batch store nothing twice. A few
 * documents per bucket rather than one per ping keep a batch to a few
 * document writes. The id is a keyed pseudonym of (customer, bucket, shard),
 * so neither the customer nor the time shows in the key an erasure leaves
 * behind as a tombstone.
 */
interface PingIdDoc {
  id: string;
  pseudonym: string;
  ids: string[];
  [field: string]: unknown;
}

/** The customer's LocationState at a stream revision, sealed under their key: a cache, so a batch need not fold the whole history. */
export interface SnapshotDoc {
  /** The customer's pseudonym. */
  id: string;
  pseudonym: string;
  revision: string;
  key_id: string;
  sealed: string;
  [field: string]: unknown;
}

const BY_PSEUDONYM: IndexSpec = { name: 'by_pseudonym', fields: ['pseudonym'] };
/**
 * Collections keyed by pseudonym. Their predecessors (`location_ping_ids_v2`,
 * `location_snapshots`) were keyed by account and customer id; nothing reads
 * them any more.
 */
const PING_IDS = 'location_ping_ids_v3';
const SNAPSHOTS = 'location_snapshots_v2';
/**
 * Filing a ping rewrites its document, ids and all (docs/adr/0045). With one
 * document per bucket, a phone pinging every second made each ping rewrite up
 * to 600 ids, and the bench's 100-ping batches rewrote ~800 per customer. A
 * ping id is a keyed hash, so its last character spreads the ids evenly.
 */
const SHARDS = 16;

/**
 * The location stream's caches in the read store: the ping-id index and the
 * sealed snapshots. Both are rebuilt by the stream's writers (the location
 * codec), never by a projection, and both go with an erasure.
 */
export class LocationCaches {
  private collections?: Promise<{ pingIds: ReadCollection<PingIdDoc>; snapshots: ReadCollection<SnapshotDoc> }>;

  constructor(
    private readonly readStore: ReadStore,
    private readonly pseudonyms: CustomerPseudonyms,
  ) {}

  async snapshot(pseudonym: string): Promise<SnapshotDoc | undefined> {
    const { snapshots } = await this.open();
    return snapshots.get(pseudonym);
  }

  /** Kept only when newer than the stored one (`position` is the append's): concurrent writers leave the newest. */
  async writeSnapshot(pseudonym: string, position: bigint, snapshot: Pick<SnapshotDoc, 'revision' | 'key_id' | 'sealed'>): Promise<void> {
    const { snapshots } = await this.open();
    await snapshots.apply(pseudonym, position, () => ({ id: pseudonym, pseudonym, ...snapshot }));
  }

  /**
   * Which of these pings the index holds. Every stored ping was recorded at
   * or before the newest one, so only pings from then or earlier (late
   * uploads, replays) are looked up: an in-order upload costs no lookup.
   */
  async known(pseudonym: string, pings: readonly FiledPing[], newest: string | undefined): Promise<Set<string>> {
    const known = new Set<string>();
    if (newest === undefined) return known;
    const candidates = pings.filter((ping) => ping.recorded_at <= newest);
    if (candidates.length === 0) return known;
    const { pingIds } = await this.open();
    const buckets = [...new Set(candidates.map((ping) => bucketOf(ping.recorded_at)))];
    const shards = [...new Set(candidates.map(shardOf))].map((shard) => this.shardId(pseudonym, shard));
    // Pings filed before the shards are in their bucket's one document: read too (late pings only, so rarely).
    const docs = await Promise.all([...shards, ...buckets.map((bucket) => this.bucketId(pseudonym, bucket))].map((id) => pingIds.get(id)));
    const filed = new Set(docs.flatMap((doc) => doc?.ids ?? []));
    for (const ping of candidates) if (filed.has(ping.ping_id)) known.add(ping.ping_id);
    return known;
  }

  /** Files ping ids by ten-minute bucket of their recorded_at, at the append's position. */
  async file(pseudonym: string, position: bigint, pings: readonly FiledPing[]): Promise<void> {
    if (pings.length === 0) return;
    const { pingIds } = await this.open();
    const byShard = new Map<string, string[]>();
    for (const ping of pings) {
      const shard = shardOf(ping);
      const ids = byShard.get(shard) ?? [];
      ids.push(ping.ping_id);
      byShard.set(shard, ids);
    }
    await Promise.all(
      [...byShard].map(([shard, ids]) => {
        const id = this.shardId(pseudonym, shard);
        return pingIds.apply(id, position, (current) => ({ id, pseudonym, ids: [...new Set([...(current?.ids ?? []), ...ids])] }));
      }),
    );
  }

  /** Part of an erasure: every cached document of the customer goes (their tombstones name only pseudonyms). */
  async purge(pseudonym: string): Promise<void> {
    const { pingIds, snapshots } = await this.open();
    await pingIds.deleteWhere({ index: BY_PSEUDONYM.name, equals: [pseudonym] });
    await snapshots.deleteWhere({ index: BY_PSEUDONYM.name, equals: [pseudonym] });
  }

  /** The document of one shard of a bucket (`shardOf`). */
  private shardId(pseudonym: string, shard: string): string {
    const [bucket, n] = shard.split('/');
    return this.pseudonyms.keyed('ping-ids', pseudonym, bucket, n);
  }

  /** A bucket's one document, as pings were filed before the shards. */
  private bucketId(pseudonym: string, bucket: string): string {
    return this.pseudonyms.keyed('ping-ids', pseudonym, bucket);
  }

  private open() {
    this.collections ??= (async () => ({
      pingIds: await this.readStore.collection<PingIdDoc>(PING_IDS, [BY_PSEUDONYM]),
      snapshots: await this.readStore.collection<SnapshotDoc>(SNAPSHOTS, [BY_PSEUDONYM]),
    }))();
    return this.collections;
  }
}

/** The shard a ping's id is filed in: its ten-minute bucket and a number below SHARDS, as `2026-11-22T09:3/7`. */
function shardOf(ping: FiledPing): string {
  return `${bucketOf(ping.recorded_at)}/${ping.ping_id.charCodeAt(ping.ping_id.length - 1) % SHARDS}`;
}

/** The ten-minute bucket of an ISO time: `2026-11-22T09:3`. */
function bucketOf(recordedAt: string): string {
  return recordedAt.slice(0, 15);
}
