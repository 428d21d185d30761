import {
  ConcurrencyError,
  StreamNotFoundError,
  type Clock,
  type DataKey,
  type EventRegistry,
  type EventStore,
  type ExpectedRevision,
  type ReadCollection,
  type ReadStore,
  type RecordedEvent,
} from '../../platform/src/index.js';
import type { ConsentState } from './domain/consent.js';
import { CUSTOMER_ID } from './domain/consent.js';
import {
  checkPing,
  ConsentRequiredError,
  decidePings,
  evolveLocation,
  initialLocationState,
  locationStream,
  registerZone,
  type FenceMatch,
  type IdentifiedPing,
  type LocationEvent,
  type LocationState,
  type PingOutcome,
  type PingRecorded,
} from './domain/location.js';
import { LocationSealing, type SealedLocationData } from './location-sealing.js';

/** The geofence index, as pings see it (implemented by the geofences module's FenceIndex). */
export interface FenceLookup {
  fencesContaining(accountId: string, customerId: string, lat: number, lng: number): FenceMatch[];
}

export interface ConsentReader {
  state(accountId: string, customerId: string): Promise<ConsentState>;
}

/**
 * Ids of a customer's stored pings recorded in one ten-minute bucket: what
 * makes a replayed batch store nothing twice. One document per bucket rather
 * than per ping keeps a batch to a few document writes.
 */
interface PingIdDoc {
  id: string;
  account_id: string;
  customer_id: string;
  ids: string[];
  [field: string]: unknown;
}

/** A ping's identity and the bucket it is filed under. */
interface FiledPing {
  ping_id: string;
  recorded_at: string;
}

/** The customer's LocationState at a stream revision, sealed under their key: a cache, so a batch need not fold the whole history. */
interface SnapshotDoc {
  id: string;
  account_id: string;
  customer_id: string;
  revision: string;
  key_id: string;
  sealed: string;
  [field: string]: unknown;
}

const BY_CUSTOMER = { name: 'by_customer', fields: ['account_id', 'customer_id'] };
/** Each failed attempt means another batch for the same customer was appended in between. */
const MAX_APPEND_ATTEMPTS = 20;
/** Customers of one request processed at once. */
const CUSTOMER_CONCURRENCY = 8;

export interface PingsResult {
  outcomes: PingOutcome[];
  /** Global position of the last event written, for read-your-writes. */
  position?: bigint;
}

interface Loaded {
  state: LocationState;
  revision?: bigint;
  /** Ping ids of the events read after the snapshot, with their positions. */
  tail: FiledPing[];
}

/**
 * Runs the location commands: ping ingestion, zone registration and the
 * erasure of a customer's location history. Ordering against a consent revoke
 * (ADR 12): the stream's revision is read before the consent, and the append
 * expects that revision; a revoke appends ConsentRevoked and then a
 * CollectionStopped marker to this stream before it answers. So an append
 * that succeeds either read the consent after the revoke (and was refused)
 * or landed before the marker, that is, before the revoke was acknowledged.
 */
export class Locations {
  private collections?: Promise<{ pingIds: ReadCollection<PingIdDoc>; snapshots: ReadCollection<SnapshotDoc> }>;

  constructor(
    private readonly events: EventStore,
    private readonly registry: EventRegistry,
    private readonly readStore: ReadStore,
    private readonly sealing: LocationSealing,
    private readonly consents: ConsentReader,
    private readonly fences: FenceLookup,
    private readonly clock: Clock,
  ) {}

  /** Validates and records pings, grouped by customer; the outcomes come back in request order. */
  async recordPings(accountId: string, raw: Record<string, unknown>[]): Promise<PingsResult> {
    const now = this.clock.now();
    const outcomes: PingOutcome[] = [];
    const byCustomer = new Map<string, { index: number; raw: Record<string, unknown> }[]>();
    raw.forEach((ping, index) => {
      const customerId = ping.customer_id;
      if (typeof customerId !== 'string' || !CUSTOMER_ID.test(customerId)) {
        outcomes.push({ index, status: 'refused', error: { code: 'INVALID_PARAM', field: 'customer_id', message: 'customer_id must be 1-128 characters of A-Z, a-z, 0-9, ".", "_", ":" and "-"' } });
        return;
      }
      const group = byCustomer.get(customerId) ?? [];
      group.push({ index, raw: ping });
      byCustomer.set(customerId, group);
    });
    let position: bigint | undefined;
    const groups = [...byCustomer.entries()];
    for (let start = 0; start < groups.length; start += CUSTOMER_CONCURRENCY) {
      const results = await Promise.all(groups.slice(start, start + CUSTOMER_CONCURRENCY).map(([customerId, pings]) => this.recordCustomerPings(accountId, customerId, pings, now)));
      for (const result of results) {
        outcomes.push(...result.outcomes);
        if (result.position !== undefined && (position === undefined || result.position > position)) position = result.position;
      }
    }
    outcomes.sort((a, b) => a.index - b.index);
    return { outcomes, position };
  }

  private async recordCustomerPings(accountId: string, customerId: string, raw: { index: number; raw: Record<string, unknown> }[], now: Date): Promise<PingsResult> {
    const refused: PingOutcome[] = [];
    const valid: { index: number; ping: ReturnType<typeof checkPing> & { ok: true } }[] = [];
    for (const { index, raw: ping } of raw) {
      const checked = checkPing(ping, now);
      if (checked.ok) valid.push({ index, ping: checked });
      else refused.push({ index, status: 'refused', error: checked.error });
    }
    if (valid.length === 0) return { outcomes: refused };
    const stream = locationStream(accountId, customerId);
    for (let attempt = 1; ; attempt += 1) {
      const loaded = await this.readLocation(accountId, customerId);
      if (!(await this.collecting(accountId, customerId))) {
        const consent = new ConsentRequiredError(customerId);
        return { outcomes: [...refused, ...valid.map(({ index }) => ({ index, status: 'refused' as const, error: { code: consent.code, message: consent.message } }))] };
      }
      const key = await this.sealing.keyFor(accountId, customerId);
      const { state, revision, tail } = await loaded(key);
      const pings: IdentifiedPing[] = valid.map(({ index, ping }) => ({ index, ...ping.ping, ping_id: this.sealing.pingId(key, ping.ping) }));
      const known = await this.knownPingIds(accountId, customerId, pings, tail, state.latest?.recorded_at);
      const decided = decidePings(state, {
        account_id: accountId,
        customer_id: customerId,
        pings,
        known,
        received_at: now.toISOString(),
        fencesAt: (lat, lng) => this.fences.fencesContaining(accountId, customerId, lat, lng),
      });
      const outcomes = [...refused, ...decided.outcomes];
      if (decided.events.length === 0) return { outcomes };
      try {
        const result = await this.append(key, stream, decided.events, revision);
        const stored = decided.events.filter((event): event is PingRecorded => event.type === 'PingRecorded').map(({ data }) => ({ ping_id: data.ping_id, recorded_at: data.recorded_at }));
        await this.remember(accountId, customerId, key, [...tail, ...stored], decided.events.reduce(evolveLocation, state), result);
        return { outcomes, position: result.position };
      } catch (error) {
        if (!(error instanceof ConcurrencyError) || attempt >= MAX_APPEND_ATTEMPTS) throw error;
      }
    }
  }

  /** `PUT /v2/monitoring/zones/{customer_id}`: the zone drift is measured against, under the same consent rule as pings. */
  async registerZone(accountId: string, customerId: string, home_cell: string, tolerance_hops: number): Promise<{ state: LocationState; position: bigint }> {
    const now = this.clock.now();
    const stream = locationStream(accountId, customerId);
    const event = registerZone({ account_id: accountId, customer_id: customerId, home_cell, tolerance_hops, now });
    for (let attempt = 1; ; attempt += 1) {
      const loaded = await this.readLocation(accountId, customerId);
      if (!(await this.collecting(accountId, customerId))) throw new ConsentRequiredError(customerId);
      const key = await this.sealing.keyFor(accountId, customerId);
      const { state, revision, tail } = await loaded(key);
      try {
        const result = await this.append(key, stream, [event], revision);
        const next = evolveLocation(state, event);
        await this.remember(accountId, customerId, key, tail, next, result);
        return { state: next, position: result.position };
      } catch (error) {
        if (!(error instanceof ConcurrencyError) || attempt >= MAX_APPEND_ATTEMPTS) throw error;
      }
    }
  }

  /** Appended by a consent revoke after ConsentRevoked, before it answers (see the class comment). */
  async stopCollection(accountId: string, customerId: string): Promise<void> {
    await this.events.append(
      locationStream(accountId, customerId),
      [{ type: 'CollectionStopped', data: { account_id: accountId, customer_id: customerId, stopped_at: this.clock.now().toISOString() }, metadata: this.registry.metadataFor('CollectionStopped') }],
      'any',
    );
  }

  /**
   * Erases the customer's location history: destroys their data key first (from
   * then on every stored copy is unreadable), then deletes the stream and the
   * caches built from it. Answers how many events the stream held. Safe to
   * repeat after a crash half way.
   */
  async erase(accountId: string, customerId: string): Promise<{ events_erased: number }> {
    const stream = locationStream(accountId, customerId);
    await this.sealing.shred(accountId, customerId);
    let count = 0;
    try {
      const [last] = await this.events.readStream(stream, { direction: 'backwards', maxCount: 1 });
      count = last ? Number(last.revision) + 1 : 0;
      await this.events.deleteStream(stream);
    } catch (error) {
      if (!(error instanceof StreamNotFoundError)) throw error;
    }
    const { pingIds, snapshots } = await this.open();
    await pingIds.deleteWhere({ index: BY_CUSTOMER.name, equals: [accountId, customerId] });
    await snapshots.deleteWhere({ index: BY_CUSTOMER.name, equals: [accountId, customerId] });
    return { events_erased: count };
  }

  /** Whether location may be collected now: consent granted and its scope covers location. */
  private async collecting(accountId: string, customerId: string): Promise<boolean> {
    const consent = await this.consents.state(accountId, customerId);
    return consent.status === 'granted' && consent.scope.includes('location');
  }

  /**
   * Reads the stream's revision (snapshot plus the events after it) now, and
   * answers a function that opens it once the key is known: the consent is
   * checked in between, and only then may a key be created.
   */
  private async readLocation(accountId: string, customerId: string): Promise<(key: DataKey) => Promise<Loaded>> {
    const { snapshots } = await this.open();
    const snapshot = await snapshots.get(snapshotId(accountId, customerId));
    const stream = locationStream(accountId, customerId);
    const after = snapshot ? BigInt(snapshot.revision) + 1n : 0n;
    const tail = await this.readFrom(stream, after);
    const revision = tail.at(-1)?.revision ?? (snapshot ? BigInt(snapshot.revision) : undefined);
    return async (key) => {
      let state = initialLocationState;
      let events = tail;
      if (snapshot && snapshot.key_id === key.id) {
        state = this.sealing.openValue<LocationState>(key, snapshotContext(accountId, customerId, snapshot.revision), snapshot.sealed);
      } else if (snapshot) {
        // Sealed under a destroyed key (an erasure stopped half way): fold the stream from the start.
        events = await this.readFrom(stream, 0n);
      }
      const tailIds: Loaded['tail'] = [];
      for (const recorded of events) {
        const event = this.sealing.openWith(key, this.registry.upcast(recorded));
        if (!event) continue;
        state = evolveLocation(state, event);
        if (event.type === 'PingRecorded') tailIds.push({ ping_id: event.data.ping_id, recorded_at: event.data.recorded_at });
      }
      return { state, revision: events.at(-1)?.revision ?? revision, tail: tailIds };
    };
  }

  private async readFrom(stream: string, fromRevision: bigint): Promise<RecordedEvent[]> {
    try {
      return await this.events.readStream(stream, { fromRevision });
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
  }

  /**
   * Which of the batch's pings are stored already. Every stored ping was
   * recorded at or before the newest one, so only pings from then or earlier
   * (late uploads, replays) are looked up: an in-order upload costs no lookup.
   */
  private async knownPingIds(accountId: string, customerId: string, pings: IdentifiedPing[], tail: Loaded['tail'], newest: string | undefined): Promise<Set<string>> {
    const known = new Set(tail.map((entry) => entry.ping_id));
    if (newest === undefined) return known;
    const { pingIds } = await this.open();
    const candidates = pings.filter((ping) => ping.recorded_at <= newest && !known.has(ping.ping_id));
    const buckets = [...new Set(candidates.map((ping) => bucketOf(ping.recorded_at)))];
    const docs = await Promise.all(buckets.map((bucket) => pingIds.get(pingIdDocId(accountId, customerId, bucket))));
    const filed = new Set(docs.flatMap((doc) => doc?.ids ?? []));
    for (const ping of candidates) if (filed.has(ping.ping_id)) known.add(ping.ping_id);
    return known;
  }

  private append(key: DataKey, stream: string, events: LocationEvent[], revision: bigint | undefined) {
    const expected: ExpectedRevision = revision ?? 'no_stream';
    return this.events.append(
      stream,
      events.map((event) => this.sealing.seal(key, stream, event, this.registry.metadataFor(event.type))),
      expected,
    );
  }

  /**
   * Files the ping ids (those read after the old snapshot and the new ones,
   * by ten-minute bucket of their recorded_at)
   * before the snapshot that covers them: every ping at or below a snapshot's
   * revision is then in the id index, whichever writer crashed where.
   */
  private async remember(
    accountId: string,
    customerId: string,
    key: DataKey,
    pings: FiledPing[],
    state: LocationState,
    result: { nextExpectedRevision: bigint; position: bigint },
  ): Promise<void> {
    const { pingIds, snapshots } = await this.open();
    const byBucket = new Map<string, string[]>();
    for (const ping of pings) {
      const bucket = bucketOf(ping.recorded_at);
      byBucket.set(bucket, [...(byBucket.get(bucket) ?? []), ping.ping_id]);
    }
    await Promise.all(
      [...byBucket].map(([bucket, ids]) => {
        const id = pingIdDocId(accountId, customerId, bucket);
        return pingIds.apply(id, result.position, (current) => ({ id, account_id: accountId, customer_id: customerId, ids: [...new Set([...(current?.ids ?? []), ...ids])] }));
      }),
    );
    const revision = result.nextExpectedRevision.toString();
    await snapshots.apply(snapshotId(accountId, customerId), result.position, () => ({
      id: snapshotId(accountId, customerId),
      account_id: accountId,
      customer_id: customerId,
      revision,
      key_id: key.id,
      sealed: this.sealing.sealValue(key, snapshotContext(accountId, customerId, revision), state),
    }));
  }

  private open() {
    this.collections ??= (async () => ({
      pingIds: await this.readStore.collection<PingIdDoc>('location_ping_ids_v2', [BY_CUSTOMER]),
      snapshots: await this.readStore.collection<SnapshotDoc>('location_snapshots', [BY_CUSTOMER]),
    }))();
    return this.collections;
  }
}

function pingIdDocId(accountId: string, customerId: string, bucket: string): string {
  return `${accountId}:${customerId}:${bucket}`;
}

/** The ten-minute bucket of an ISO time: `2026-11-22T09:3`. */
function bucketOf(recordedAt: string): string {
  return recordedAt.slice(0, 15);
}

function snapshotId(accountId: string, customerId: string): string {
  return `${accountId}:${customerId}`;
}

function snapshotContext(accountId: string, customerId: string, revision: string): string {
  return `location-snapshot|${accountId}:${customerId}|${revision}`;
}

export type { SealedLocationData };
