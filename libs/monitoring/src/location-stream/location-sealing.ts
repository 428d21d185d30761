import { createHmac } from 'node:crypto';
import { SealedFields, type DataKey, type DataKeyVault, type NewEvent, type RecordedEvent } from '../../../platform/src/index.js';
import type { LocationEvent, Ping } from '../domain/location.js';

/**
 * Crypto-shredding of location data (ADR 12). Every location event is stored
 * as its non-location fields in the clear plus one `sealed` field: the rest
 * of its data, AES-256-GCM under the customer's own data key (from the
 * DataKeyVault, outside the event log), bound to the stream and event type
 * (the platform's SealedFields codec, which locator's check-ins use too).
 * Destroying that key makes every copy unreadable: the log, pages LMDB freed
 * but did not wipe, EventStoreDB before a scavenge, what the relay sent to Kafka.
 *
 * Clear: account_id, customer_id, the key id, the customer's pseudonym (what
 * read models are keyed by) and times (ordering and the webhook payload
 * `timestamp` need them without the key); ping ids are keyed hashes, so equal
 * pings can be recognised without revealing where they were.
 */
export interface SealedLocationData extends Record<string, unknown> {
  account_id: string;
  customer_id: string;
  key_id: string;
  /** Keyed pseudonym of (account, customer) (`customer-pseudonyms.ts`); absent in events stored before it was added. */
  pseudonym?: string;
  sealed: string;
}

/** Fields kept in the clear, per event type; everything else of `data` is sealed. */
const CLEAR_FIELDS: Record<LocationEvent['type'], readonly string[]> = {
  PingRecorded: ['ping_id', 'recorded_at'],
  ZoneRegistered: ['registered_at'],
  DriftStarted: ['occurred_at'],
  DriftEnded: ['occurred_at'],
  GeofenceEntered: ['occurred_at'],
  GeofenceLeft: ['occurred_at'],
  CollectionStopped: ['stopped_at'],
};
/** Events that hold no location at all and need no key. */
const UNSEALED: ReadonlySet<string> = new Set<LocationEvent['type']>(['CollectionStopped']);

/** Fields of the stored envelope that are not the event's own data. */
const ENVELOPE_FIELDS = ['sealed', 'key_id', 'pseudonym'] as const;

export class LocationSealing {
  private readonly fields = new SealedFields();

  constructor(private readonly vault: DataKeyVault) {}

  /** The vault subject of a customer's key. */
  static subject(accountId: string, customerId: string): string {
    return `${accountId}:${customerId}`;
  }

  static sealed(type: string): boolean {
    return !UNSEALED.has(type);
  }

  /** The customer's key, created on first use: call it only once the consent is confirmed (ADR 12). */
  keyFor(accountId: string, customerId: string): Promise<DataKey> {
    return this.vault.obtain(LocationSealing.subject(accountId, customerId));
  }

  /** The customer's key if it is the one with this id (never creates one); undefined once destroyed. */
  findKey(accountId: string, customerId: string, keyId: string): Promise<DataKey | undefined> {
    return this.vault.find(LocationSealing.subject(accountId, customerId), keyId);
  }

  /** Destroys the customer's key: everything sealed under it becomes noise. Destroying twice is harmless. */
  shred(accountId: string, customerId: string): Promise<void> {
    return this.vault.destroy(LocationSealing.subject(accountId, customerId));
  }

  /** A keyed hash of the ping's content: a replayed ping gets the same id, and the id reveals nothing without the key. */
  pingId(key: DataKey, ping: Ping): string {
    // The mock flag joins the content only when the client sent it, so the ids of pings stored before it stay the same.
    const content: unknown[] = [ping.recorded_at, ping.lat, ping.lng, ping.accuracy_m, ping.device_id];
    if (ping.mock_location !== undefined) content.push(ping.mock_location);
    const canonical = JSON.stringify(content);
    return createHmac('sha256', key.key).update(canonical).digest('base64url').slice(0, 22);
  }

  /** The stored form of a decided event (already stamped with its schema version): location fields sealed under `key`. */
  seal(key: DataKey, stream: string, event: NewEvent, pseudonym: string): NewEvent {
    const data = event.data;
    if (UNSEALED.has(event.type)) return event;
    const clearFields = CLEAR_FIELDS[event.type as LocationEvent['type']];
    const envelope = { account_id: data.account_id, customer_id: data.customer_id, key_id: key.id, pseudonym };
    const keepClear = (field: string) => field === 'account_id' || field === 'customer_id' || clearFields.includes(field);
    return { ...event, data: this.fields.seal(key, SealedFields.context(stream, event.type), data, keepClear, envelope) };
  }

  /**
   * The event in the clear (as stored, not upcast: upcasting comes after
   * opening), or undefined when its key was destroyed (or replaced after an
   * erasure). For readers outside the command pipeline: webhook payloads,
   * the drift query.
   */
  async open(event: Pick<RecordedEvent, 'type' | 'data' | 'streamName'>): Promise<LocationEvent | undefined> {
    // The casts to LocationEvent here and in openWith cannot go: a stored event's type and data are untyped
    // JSON, and this is the place where they become one of the context's events (opened, not yet upcast).
    if (UNSEALED.has(event.type)) return { type: event.type, data: event.data } as unknown as LocationEvent;
    const data = event.data as SealedLocationData;
    const key = await this.findKey(data.account_id, data.customer_id, data.key_id);
    if (!key) return undefined;
    return this.openWith(key, event);
  }

  /** As `open`, with the key at hand; undefined when the event was sealed under another key. */
  openWith(key: DataKey, event: Pick<RecordedEvent, 'type' | 'data' | 'streamName'>): LocationEvent | undefined {
    if (UNSEALED.has(event.type)) return { type: event.type, data: event.data } as unknown as LocationEvent;
    const data = event.data as SealedLocationData;
    if (data.key_id !== key.id) return undefined;
    return { type: event.type, data: this.fields.open(key, SealedFields.context(event.streamName, event.type), data, ENVELOPE_FIELDS) } as unknown as LocationEvent;
  }

  /** Seals a document-sized value (a snapshot) under the customer's key. */
  sealValue(key: DataKey, context: string, value: unknown): string {
    return this.fields.sealValue(key, context, value);
  }

  openValue<T>(key: DataKey, context: string, sealed: string): T {
    return this.fields.openValue<T>(key, context, sealed);
  }
}
