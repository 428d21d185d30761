import {
  checkpointName,
  collectionName,
  StreamNotFoundError,
  type DataKey,
  type EventRegistry,
  type EventStore,
  type ReadCollection,
  type ReadStore,
  type RecordedEvent,
} from '../../../platform/src/index.js';
import { consentStream, evolveConsent, initialConsentState, type ConsentEvent, type ConsentGranted, type ConsentState, type CustomerDataErased } from '../domain/consent.js';
import { locationStream, type LocationEvent, type PingRecorded } from '../domain/location.js';
import type { CustomerPseudonyms } from '../location-stream/customer-pseudonyms.js';
import type { SealedLocationData } from '../location-stream/location-sealing.js';
import type {
  CustomerConsent,
  CustomerLocationChange,
  CustomerLocationChangeKind,
  CustomerLocationFeed,
  CustomerLocations,
  CustomerRecords,
  CustomerSighting,
  KnownPosition,
  RecordedPing,
  RecordedPings,
} from '../public/customer-locations.port.js';
import { DRIFT_STATE_PROJECTION, DRIFT_STATE_VERSION, type DriftStateDoc } from '../drift/drift-state.read-model.js';

/** Opens a stored location event with its customer's data key (LocationSealing); undefined once the key is destroyed. */
export interface LocationOpener {
  open(event: Pick<RecordedEvent, 'type' | 'data' | 'streamName'>): Promise<LocationEvent | undefined>;
  /**
   * With both of these (LocationSealing has them), a read of many events finds
   * the customer's key once and opens each event with it, rather than looking
   * the key up again for every event: `open` is `findKey` then `openWith`.
   */
  findKey?(accountId: string, customerId: string, keyId: string): Promise<DataKey | undefined>;
  openWith?(key: DataKey, event: Pick<RecordedEvent, 'type' | 'data' | 'streamName'>): LocationEvent | undefined;
}

/** Location events read per page, newest first. */
const PAGE = 500;
const PSEUDONYM_CACHE_LIMIT = 200_000;
const OPENED_CACHE_LIMIT = 200_000;

/** What each kind of change is made of: the streams and stored types a follower reads for it. */
const SOURCES: Record<CustomerLocationChangeKind, { streamPrefix: string; types: readonly string[] }> = {
  position: { streamPrefix: 'location-', types: ['PingRecorded'] },
  drift: { streamPrefix: 'location-', types: ['DriftStarted', 'DriftEnded'] },
  erased: { streamPrefix: 'consent-', types: ['CustomerDataErased'] },
  consent: { streamPrefix: 'consent-', types: ['ConsentGranted', 'ConsentRevoked'] },
};

/**
 * The monitoring context's implementation of its CustomerLocations port.
 * Consent and recorded pings are read from the customer's own streams (short,
 * and read once per request); the last known position from the drift_state
 * read model, opened with the customer's key.
 */
export class MonitoringCustomerLocations implements CustomerLocations {
  private collection?: Promise<ReadCollection<DriftStateDoc>>;
  /** Pseudonyms are a keyed hash of (account, customer) and never change: computed once per customer (a book is read whole, often). */
  private readonly pseudonymCache = new Map<string, string>();
  /**
   * Positions already opened, by pseudonym, valid while the read model still
   * holds the very sealed value they were opened from: a new ping replaces
   * the value, and an erasure deletes the document (after destroying the key),
   * so nothing erased is answered from here. Opening is most of a sighting's
   * cost (an AES-GCM context per customer key); a book assessed again reads
   * only the documents.
   */
  private readonly opened = new Map<string, { sealed: string; position: KnownPosition }>();

  readonly changes: CustomerLocationFeed;

  constructor(
    private readonly events: EventStore,
    private readonly registry: EventRegistry,
    private readonly readStore: ReadStore,
    private readonly sealing: LocationOpener,
    private readonly pseudonyms: Pick<CustomerPseudonyms, 'of'>,
    /** Opens a grant's sealed proof for the customer's copy (docs/adr/0055); without it the copy shows the grant as stored. */
    private readonly consentOpener?: { open(event: RecordedEvent): Promise<RecordedEvent> },
  ) {
    this.changes = {
      source: (kinds) => ({
        streamPrefixes: [...new Set(kinds.map((kind) => SOURCES[kind].streamPrefix))],
        handles: [...new Set(kinds.flatMap((kind) => SOURCES[kind].types))],
      }),
      decode: (event) => this.decode(event),
      lastKnownCheckpoint: checkpointName({ name: DRIFT_STATE_PROJECTION, version: DRIFT_STATE_VERSION }),
    };
  }

  async consent(accountId: string, customerId: string): Promise<CustomerConsent> {
    const state = await this.consentState(accountId, customerId);
    if (state.status === 'none') return { status: 'none', purpose: null, scope: [], granted_at: null, revoked_at: null };
    return { status: state.status, purpose: state.purpose, scope: state.scope, granted_at: state.granted_at, revoked_at: state.status === 'revoked' ? state.revoked_at : null };
  }

  async lastKnown(accountId: string, customerId: string): Promise<CustomerSighting> {
    const collection = await (this.collection ??= this.readStore.collection<DriftStateDoc>(collectionName({ name: DRIFT_STATE_PROJECTION, version: DRIFT_STATE_VERSION })));
    const pseudonym = this.pseudonymOf(accountId, customerId);
    const doc = await collection.get(pseudonym);
    if (!doc) {
      this.opened.delete(pseudonym);
      return { position: null, drifting: false };
    }
    let position: KnownPosition | null = null;
    const cached = this.opened.get(doc.pseudonym);
    if (doc.latest_ping && cached?.sealed === doc.latest_ping.sealed) {
      position = cached.position;
    } else if (doc.latest_ping) {
      const opened = (await this.sealing.open({
        type: 'PingRecorded',
        streamName: locationStream(accountId, customerId),
        data: { account_id: accountId, customer_id: customerId, key_id: doc.latest_ping.key_id, sealed: doc.latest_ping.sealed, recorded_at: doc.latest_ping.recorded_at },
      })) as PingRecorded | undefined;
      if (opened) {
        position = { lat: opened.data.lat, lng: opened.data.lng, accuracy_m: opened.data.accuracy_m ?? null, recorded_at: doc.latest_ping.recorded_at };
        if (this.opened.size >= OPENED_CACHE_LIMIT) this.opened.clear();
        this.opened.set(doc.pseudonym, { sealed: doc.latest_ping.sealed, position });
      }
    }
    return { position, drifting: doc.drifting === true };
  }

  /**
   * Only while location consent is granted, opened with the customer's key
   * (after an erasure there is nothing to open), newest first. Reads the
   * location stream backwards: it is the customer's own, short of a very
   * active phone, and this runs once per verification. The key is looked up
   * once per read (per key id), not once per ping (issue 49): opening is
   * most of a verification's cost, and a month of pings is thousands of them.
   */
  async recordedPings(accountId: string, customerId: string, since: Date, limit: number): Promise<RecordedPings> {
    if ((await this.consentState(accountId, customerId)).status !== 'granted') return { consent: 'not_granted' };
    const cutoff = since.toISOString();
    const pings: RecordedPing[] = [];
    const stream = locationStream(accountId, customerId);
    const open = this.readOpener();
    let before: bigint | undefined;
    for (;;) {
      const page = await this.page(stream, before);
      let inWindow = false;
      for (const stored of page) {
        const recordedAt = stored.data.recorded_at;
        if (typeof recordedAt !== 'string' || recordedAt >= cutoff) inWindow = true;
        if (stored.type !== 'PingRecorded') continue;
        // Clear on every stored ping: pages older than the window need not be opened.
        if (typeof recordedAt === 'string' && recordedAt < cutoff) continue;
        const opened = open(stored);
        const position = this.positionOf(stored, opened instanceof Promise ? await opened : opened, true);
        if (position) pings.push(position);
      }
      // Pings arrive late and out of order, so a page is read whole; a page entirely before the window ends the walk.
      const oldest = page.at(-1);
      if (page.length < PAGE || !oldest || pings.length >= limit || !inWindow) break;
      before = oldest.revision;
    }
    // recorded_at is stored as toISOString() makes it (validatePing), so the text's order is the time's (as decidePings orders them).
    pings.sort((a, b) => (a.recorded_at < b.recorded_at ? 1 : a.recorded_at > b.recorded_at ? -1 : 0));
    if (pings.length > limit) pings.length = limit;
    return { consent: 'granted', pings };
  }

  /**
   * Opens the events of one read: with an opener that can, the key each event
   * names is found once (the vault's own look-up hashes the subject every
   * time) and kept for this read only, so a key destroyed later is not held.
   */
  private readOpener(): (event: RecordedEvent) => LocationEvent | undefined | Promise<LocationEvent | undefined> {
    const { sealing } = this;
    if (!sealing.findKey || !sealing.openWith) return (event) => sealing.open(event);
    const keys = new Map<string, DataKey | undefined>();
    // The key of the event before: a customer's stream is sealed under one key, so this is nearly always the one.
    let last: { account: string; customer: string; keyId: string; key: DataKey | undefined } | undefined;
    const openWith = (key: DataKey | undefined, event: RecordedEvent) => (key === undefined ? undefined : sealing.openWith!(key, event));
    return (event) => {
      const data = event.data as Partial<SealedLocationData>;
      const { account_id: account, customer_id: customer, key_id: keyId } = data;
      // Not sealed as a ping is (nothing to find a key by): as `open` takes it.
      if (typeof account !== 'string' || typeof customer !== 'string' || typeof keyId !== 'string') return sealing.open(event);
      if (last !== undefined && last.keyId === keyId && last.account === account && last.customer === customer) return openWith(last.key, event);
      const name = `${account}\u0000${customer}\u0000${keyId}`;
      if (keys.has(name)) {
        last = { account, customer, keyId, key: keys.get(name) };
        return openWith(last.key, event);
      }
      return sealing.findKey!(account, customer, keyId).then((key) => {
        keys.set(name, key);
        last = { account, customer, keyId, key };
        return openWith(key, event);
      });
    };
  }

  async customerRecords(accountId: string, customerId: string, cursor: string | null, limit: number): Promise<CustomerRecords> {
    let consentEvents: RecordedEvent[] = [];
    try {
      const stored = await this.events.readStream(consentStream(accountId, customerId));
      const opened = this.consentOpener ? await Promise.all(stored.map((event) => this.consentOpener!.open(event))) : stored;
      consentEvents = opened.map((event) => this.registry.upcast(event));
    } catch (error) {
      if (!(error instanceof StreamNotFoundError)) throw error;
    }
    const consents = consentEvents.map((event) => {
      // The pseudonym and the sealed id name the record in the consents read model (docs/adr/0032): the service's bookkeeping, not the customer's data.
      const { pseudonym: _pseudonym, customer_sealed: _sealed, ...data } = event.data as Record<string, unknown>;
      const at = [data.granted_at, data.revoked_at, data.erased_at, data.sealed_at].find((value) => typeof value === 'string') as string | undefined;
      return { type: event.type, at: at ?? event.createdAt.toISOString(), receipt: data.receipt ?? null, data };
    });
    const erased = consentEvents.filter((event) => event.type === 'CustomerDataErased').at(-1)?.data as CustomerDataErased['data'] | undefined;
    const from = cursor === null ? 0n : BigInt(cursor);
    let page: RecordedEvent[] = [];
    try {
      page = await this.events.readStream(locationStream(accountId, customerId), { fromRevision: from, maxCount: limit });
    } catch (error) {
      if (!(error instanceof StreamNotFoundError)) throw error;
    }
    const history: Array<Record<string, unknown>> = [];
    let unreadable = 0;
    const open = this.readOpener();
    for (const stored of page) {
      const pending = open(stored);
      const opened = pending instanceof Promise ? await pending : pending;
      if (!opened) {
        unreadable++;
        continue;
      }
      const { account_id: _account, customer_id: _customer, ...fields } = this.registry.upcast({ ...stored, data: opened.data as Record<string, unknown> }).data as Record<string, unknown>;
      history.push({ type: stored.type, ...fields });
    }
    return {
      consents,
      erasure: erased ? { erased_at: erased.erased_at, erased_by: erased.erased_by, events_erased: erased.events_erased } : null,
      history,
      unreadable,
      next_cursor: page.length === limit ? (page[page.length - 1].revision + 1n).toString() : null,
    };
  }

  private async decode(event: RecordedEvent): Promise<CustomerLocationChange | undefined> {
    const data = event.data as { account_id?: unknown; customer_id?: unknown };
    if (typeof data.account_id !== 'string' || typeof data.customer_id !== 'string') return undefined;
    const ids = { account_id: data.account_id, customer_id: data.customer_id };
    switch (event.type) {
      case 'PingRecorded': {
        const position = await this.openPing(event);
        return position && { kind: 'position', ...ids, position };
      }
      case 'DriftStarted':
      case 'DriftEnded':
        return { kind: 'drift', ...ids, drifting: event.type === 'DriftStarted' };
      case 'CustomerDataErased':
        return { kind: 'erased', ...ids };
      case 'ConsentGranted':
        return { kind: 'consent', ...ids, consent: { status: 'granted', purpose: (event.data as unknown as ConsentGranted['data']).purpose } };
      case 'ConsentRevoked':
        return { kind: 'consent', ...ids, consent: { status: 'revoked' } };
      default:
        return undefined;
    }
  }

  /** A stored ping opened (as stored), then upcast: its position, or undefined once its key is destroyed. */
  private async openPing(stored: RecordedEvent): Promise<RecordedPing | undefined> {
    return this.positionOf(stored, await this.sealing.open(stored));
  }

  /** The position of a stored ping and its opened form (undefined: its key is gone), upcast. */
  private positionOf(stored: RecordedEvent, opened: LocationEvent | undefined, withArrival = false): RecordedPing | undefined {
    if (!opened) return undefined;
    const data = this.registry.upcast({ ...stored, data: opened.data as Record<string, unknown> }).data as PingRecorded['data'];
    const position: RecordedPing = { lat: data.lat, lng: data.lng, accuracy_m: data.accuracy_m ?? null, recorded_at: data.recorded_at };
    if (withArrival && typeof data.received_at === 'string') position.received_at = data.received_at;
    if (withArrival && typeof data.mock_location === 'boolean') position.mock_location = data.mock_location;
    return position;
  }

  private async consentState(accountId: string, customerId: string): Promise<ConsentState> {
    let stored: RecordedEvent[];
    try {
      stored = await this.events.readStream(consentStream(accountId, customerId));
    } catch (error) {
      if (error instanceof StreamNotFoundError) return initialConsentState;
      throw error;
    }
    return stored.map((event) => this.registry.upcast(event)).reduce((state, event) => evolveConsent(state, { type: event.type, data: event.data } as ConsentEvent), initialConsentState);
  }

  private async page(stream: string, before: bigint | undefined): Promise<RecordedEvent[]> {
    if (before === 0n) return [];
    try {
      return await this.events.readStream(stream, { direction: 'backwards', maxCount: PAGE, ...(before === undefined ? {} : { fromRevision: before - 1n }) });
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
  }

  private pseudonymOf(accountId: string, customerId: string): string {
    const key = `${accountId}\u0000${customerId}`;
    let pseudonym = this.pseudonymCache.get(key);
    if (pseudonym === undefined) {
      if (this.pseudonymCache.size >= PSEUDONYM_CACHE_LIMIT) this.pseudonymCache.clear();
      pseudonym = this.pseudonyms.of(accountId, customerId);
      this.pseudonymCache.set(key, pseudonym);
    }
    return pseudonym;
  }
}
