import type { AppendResult, CodecSession, DataKey, NewEvent, RecordedEvent, Snapshot, StreamCodec } from '../../../platform/src/index.js';
import { locationStreamOwner, type LocationState } from '../domain/location.js';
import type { CustomerPseudonyms } from './customer-pseudonyms.js';
import type { FiledPing, LocationCaches } from './location-caches.js';
import { LocationSealing, type SealedLocationData } from './location-sealing.js';

/**
 * What lies between a location stream and its decider (ADR 12): sealing
 * under the customer's data key, sealed snapshots, and the ping-id index.
 * The pipeline reads snapshot → decode → open → upcast → evolve and writes
 * decide → seal → append → `appended` (index, then snapshot).
 *
 * Keys: reading only ever finds an existing key (`find`), so loading a
 * stream creates none; the key is obtained (created on first use) when a
 * sealed event is written, which is after the command's `prepare` confirmed
 * the consent. An event or snapshot sealed under a destroyed key (an erasure)
 * is left out: it reads as if it had never been.
 */
export class LocationCodec implements StreamCodec<LocationState> {
  constructor(
    private readonly sealing: LocationSealing,
    private readonly caches: LocationCaches,
    private readonly pseudonyms: CustomerPseudonyms,
  ) {}

  session(stream: string): CodecSession<LocationState> {
    const { account_id, customer_id } = locationStreamOwner(stream);
    return new LocationSession(stream, account_id, customer_id, this.pseudonyms.of(account_id, customer_id), this.sealing, this.caches);
  }
}

/** One command attempt: caches the key it found or made, and the pings it read after the snapshot. */
class LocationSession implements CodecSession<LocationState> {
  private key?: DataKey;
  /** Key ids found destroyed in this attempt: not asked for again. */
  private readonly gone = new Set<string>();
  /** Pings read after the snapshot: filed in the index before the next snapshot covers them. */
  private readonly tail: FiledPing[] = [];

  constructor(
    private readonly stream: string,
    private readonly accountId: string,
    private readonly customerId: string,
    private readonly pseudonym: string,
    private readonly sealing: LocationSealing,
    private readonly caches: LocationCaches,
  ) {}

  async snapshot(): Promise<Snapshot<LocationState> | undefined> {
    const doc = await this.caches.snapshot(this.pseudonym);
    if (!doc) return undefined;
    const key = await this.keyWithId(doc.key_id);
    // Sealed under a destroyed key (an erasure stopped half way): fold the stream from the start.
    if (!key) return undefined;
    const state = this.sealing.openValue<LocationState>(key, snapshotContext(this.accountId, this.customerId, doc.revision), doc.sealed);
    return { state: { ...state, seen_ping_ids: [] }, revision: BigInt(doc.revision) };
  }

  async open(event: RecordedEvent): Promise<RecordedEvent | undefined> {
    if (!LocationSealing.sealed(event.type)) return event;
    const stored = event.data as SealedLocationData;
    const key = await this.keyWithId(stored.key_id);
    if (!key) return undefined;
    const opened = this.sealing.openWith(key, event);
    if (!opened) return undefined;
    if (event.type === 'PingRecorded') this.tail.push({ ping_id: String(stored.ping_id), recorded_at: String(stored.recorded_at) });
    // The cast cannot go: a LocationEvent's data is a closed record type, the stored event's an open JSON object.
    return { ...event, data: opened.data as unknown as Record<string, unknown> };
  }

  async seal(event: NewEvent): Promise<NewEvent> {
    if (!LocationSealing.sealed(event.type)) return event;
    this.key ??= await this.sealing.keyFor(this.accountId, this.customerId);
    return this.sealing.seal(this.key, this.stream, event, this.pseudonym);
  }

  /**
   * Files the ping ids (those read after the old snapshot and the new ones)
   * before the snapshot that covers them: every ping at or below a
   * snapshot's revision is then in the index, whichever writer crashed where.
   * Without a key (nothing sealed was read or written: a revoke's marker on
   * an empty stream) there is nothing to file and no snapshot to seal.
   */
  async appended({ state, result, events }: { state: LocationState; result: AppendResult; events: readonly NewEvent[] }): Promise<void> {
    const key = this.key;
    if (!key) return;
    const written = events.filter((event) => event.type === 'PingRecorded').map(({ data }) => ({ ping_id: String(data.ping_id), recorded_at: String(data.recorded_at) }));
    await this.caches.file(this.pseudonym, result.position, [...this.tail, ...written]);
    const revision = result.nextExpectedRevision.toString();
    await this.caches.writeSnapshot(this.pseudonym, result.position, {
      revision,
      key_id: key.id,
      sealed: this.sealing.sealValue(key, snapshotContext(this.accountId, this.customerId, revision), { ...state, seen_ping_ids: [] }),
    });
  }

  private async keyWithId(keyId: string): Promise<DataKey | undefined> {
    if (this.key?.id === keyId) return this.key;
    if (this.gone.has(keyId)) return undefined;
    const key = await this.sealing.findKey(this.accountId, this.customerId, keyId);
    if (key) this.key = key;
    else this.gone.add(keyId);
    return key;
  }
}

function snapshotContext(accountId: string, customerId: string, revision: string): string {
  return `location-snapshot|${accountId}:${customerId}|${revision}`;
}
