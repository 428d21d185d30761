import {
  consentDecider,
  consentStream,
  CustomerPseudonyms,
  DRIFT_STATE_PROJECTION,
  DRIFT_STATE_VERSION,
  LocationSealing,
  locationStream,
  type ConsentState,
  type DriftStateDoc,
  type PingRecorded,
} from '../../../monitoring/src/index.js';
import { collectionName, CommandPipeline, type ReadCollection, type ReadStore } from '../../../platform/src/index.js';

const PSEUDONYM_CACHE_LIMIT = 200_000;
const OPENED_CACHE_LIMIT = 200_000;

/** A borrower's last known position, as monitoring recorded it. */
export interface KnownPosition {
  lat: number;
  lng: number;
  accuracy_m: number | null;
  recorded_at: string;
}

export interface BorrowerSighting {
  /** The newest ping (by recorded_at); null when none was recorded (or its key was destroyed by an erasure). */
  position: KnownPosition | null;
  /** Monitoring's drift state against the customer's registered home zone (PUT /v2/monitoring/zones). */
  drifting: boolean;
}

/**
 * What the banking context reads of the monitoring context: a customer's
 * consent (from its stream, as a command would see it) and last known
 * position (the `drift_state` read model, opened with the customer's data key:
 * positions are never copied into banking's own events or read models, so an
 * erasure takes them away here too; ADR 12).
 */
export class BorrowerPositions {
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

  constructor(
    private readonly commands: CommandPipeline,
    private readonly readStore: ReadStore,
    private readonly sealing: LocationSealing,
    private readonly pseudonyms: CustomerPseudonyms,
  ) {}

  async consent(accountId: string, customerId: string): Promise<ConsentState> {
    return (await this.commands.read({ decider: consentDecider }, consentStream(accountId, customerId))).state;
  }

  /** True when the customer's standing consent is for loan collections. */
  static allowsCollections(consent: ConsentState): boolean {
    return consent.status === 'granted' && consent.purpose === 'loan_collections';
  }

  async sighting(accountId: string, customerId: string): Promise<BorrowerSighting> {
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
