import { createHmac } from 'node:crypto';
import { SecretBox, type DataKey, type DataKeyVault, type NewEvent, type RecordedEvent } from '../../platform/src/index.js';
import type { LocationEvent, Ping } from './domain/location.js';

/**
 * Crypto-shredding of location data (ADR 12). Every location event is stored
 * as its non-location fields in the clear plus one `sealed` field: the rest
 * of its data, AES-256-GCM under the customer's own data key (from the
 * DataKeyVault, outside the event log), bound to the stream and event type.
 * Destroying that key makes every copy unreadable: the log, pages LMDB freed
 * but did not wipe, EventStoreDB before a scavenge, what the relay sent to Kafka.
 *
 * Clear: account_id, customer_id, the key id, and times (ordering and the
 * webhook payload `timestamp` need them without the key); ping ids are keyed
 * hashes, so equal pings can be recognised without revealing where they were.
 */
export interface SealedLocationData extends Record<string, unknown> {
  account_id: string;
  customer_id: string;
  key_id: string;
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
const UNSEALED: ReadonlySet<LocationEvent['type']> = new Set(['CollectionStopped']);

export class LocationSealing {
  private readonly boxes = new Map<string, SecretBox>();

  constructor(private readonly vault: DataKeyVault) {}

  static subject(accountId: string, customerId: string): string {
    return `${accountId}:${customerId}`;
  }

  /** The customer's key, created on first use. */
  keyFor(accountId: string, customerId: string): Promise<DataKey> {
    return this.vault.obtain(LocationSealing.subject(accountId, customerId));
  }

  /** Destroys the customer's key: everything sealed under it becomes noise. */
  shred(accountId: string, customerId: string): Promise<void> {
    const subject = LocationSealing.subject(accountId, customerId);
    return this.vault.destroy(subject);
  }

  /** A keyed hash of the ping's content: a replayed ping gets the same id, and the id reveals nothing without the key. */
  pingId(key: DataKey, ping: Ping): string {
    const canonical = JSON.stringify([ping.recorded_at, ping.lat, ping.lng, ping.accuracy_m, ping.device_id]);
    return createHmac('sha256', key.key).update(canonical).digest('base64url').slice(0, 22);
  }

  seal(key: DataKey, stream: string, event: LocationEvent, metadata: Record<string, unknown>): NewEvent {
    const data = event.data as unknown as Record<string, unknown>;
    if (UNSEALED.has(event.type)) return { type: event.type, data: { ...data }, metadata };
    const clear: Record<string, unknown> = { account_id: data.account_id, customer_id: data.customer_id, key_id: key.id };
    const secret: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(data)) {
      if (field === 'account_id' || field === 'customer_id') continue;
      if (CLEAR_FIELDS[event.type].includes(field)) clear[field] = value;
      else secret[field] = value;
    }
    clear.sealed = this.box(key).seal(JSON.stringify(secret), aad(stream, event.type));
    return { type: event.type, data: clear, metadata };
  }

  /** The event in the clear, or undefined when its key was destroyed (or replaced after an erasure). */
  async open(event: Pick<RecordedEvent, 'type' | 'data' | 'streamName'>): Promise<LocationEvent | undefined> {
    const type = event.type as LocationEvent['type'];
    if (UNSEALED.has(type)) return { type, data: event.data } as unknown as LocationEvent;
    const data = event.data as SealedLocationData;
    const key = await this.vault.find(LocationSealing.subject(data.account_id, data.customer_id), data.key_id);
    if (!key) return undefined;
    return this.openWith(key, event);
  }

  /** As `open`, with the key at hand; undefined when the event was sealed under another key. */
  openWith(key: DataKey, event: Pick<RecordedEvent, 'type' | 'data' | 'streamName'>): LocationEvent | undefined {
    const type = event.type as LocationEvent['type'];
    if (UNSEALED.has(type)) return { type, data: event.data } as unknown as LocationEvent;
    const { sealed, key_id, ...clear } = event.data as SealedLocationData;
    if (key_id !== key.id) return undefined;
    const secret = JSON.parse(this.box(key).open(sealed, aad(event.streamName, type))) as Record<string, unknown>;
    return { type, data: { ...clear, ...secret } } as unknown as LocationEvent;
  }

  /** Seals a document-sized value (a snapshot, a read-model field) under the customer's key. */
  sealValue(key: DataKey, context: string, value: unknown): string {
    return this.box(key).seal(JSON.stringify(value), context);
  }

  openValue<T>(key: DataKey, context: string, sealed: string): T {
    return JSON.parse(this.box(key).open(sealed, context)) as T;
  }

  private box(key: DataKey): SecretBox {
    let box = this.boxes.get(key.id);
    if (!box) {
      if (this.boxes.size > 10_000) this.boxes.clear();
      box = SecretBox.fromKey(key.key);
      this.boxes.set(key.id, box);
    }
    return box;
  }
}

function aad(stream: string, type: string): string {
  return `${stream}|${type}`;
}
