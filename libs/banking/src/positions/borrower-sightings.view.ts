import type { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { DRIFT_STATE_PROJECTION, DRIFT_STATE_VERSION, type CustomerDataErased, type LocationSealing, type PingRecorded } from '../../../monitoring/src/index.js';
import { checkpointName, collectionName, forEachDocument, LogFollower, type EventRegistry, type EventStore, type JsonLogger, type ReadStore, type RecordedEvent } from '../../../platform/src/index.js';
import type { CollectionLoanRegistered } from '../domain/loan.js';
import { COLLECTION_LOAN_INDEXES, COLLECTION_LOANS_READ_MODEL, type CollectionLoanDoc } from '../read-models/collection-loans.read-model.js';
import type { BorrowerPositions, BorrowerSighting } from './borrower-positions.js';

/** Borrowers loaded between two yields to the event loop at start. */
const LOAD_SLICE = 1000;

/**
 * Every borrower's last sighting, kept current as pings are recorded, so that
 * portfolio risk reads a book from memory instead of opening a sealed position
 * per borrower per query (ADR 22, "Speed"). An in-memory view: loaded at start
 * from the `collection_loans` and `drift_state` read models (each borrower's
 * latest ping opened once), then following the location, consent and loan
 * streams from drift_state's checkpoint. Only borrowers (customers with a
 * registered loan) are held, and only their pings are opened.
 *
 * Erasure: `CustomerDataErased` drops the borrower's sighting at once (the
 * key is already destroyed; nothing is persisted here). A borrower the view
 * does not hold (a loan registered after pings it has not seen) is read by
 * the caller through BorrowerPositions, which is always correct.
 */
export class BorrowerSightings implements OnApplicationBootstrap, OnModuleDestroy {
  static readonly readModel = 'banking_borrower_sightings';
  readonly follower: LogFollower;
  private readonly borrowers = new Set<string>();
  private readonly sightings = new Map<string, BorrowerSighting>();

  constructor(
    events: EventStore,
    registry: EventRegistry,
    private readonly readStore: ReadStore,
    private readonly sealing: LocationSealing,
    private readonly positions: BorrowerPositions,
    logger?: Pick<JsonLogger, 'error' | 'warn'>,
  ) {
    this.follower = new LogFollower(
      events,
      registry,
      readStore,
      {
        name: 'banking borrower sightings',
        streamPrefixes: ['location-', 'consent-', 'collection_loan-'],
        handles: ['PingRecorded', 'DriftStarted', 'DriftEnded', 'CustomerDataErased', 'CollectionLoanRegistered'],
        start: { from: 'load', key: checkpointName({ name: DRIFT_STATE_PROJECTION, version: DRIFT_STATE_VERSION }), load: () => this.load() },
        sink: { handle: (event) => this.apply(event) },
      },
      logger,
    );
  }

  onApplicationBootstrap(): Promise<void> {
    return this.follower.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.follower.stop();
  }

  /** The borrower's sighting as last seen; undefined when the view does not hold the borrower. */
  get(accountId: string, customerId: string): BorrowerSighting | undefined {
    return this.sightings.get(key(accountId, customerId));
  }

  /** Every borrower of every registered loan, with their latest sighting (public for the benchmark). */
  async load(): Promise<void> {
    const loans = await this.readStore.collection<CollectionLoanDoc>(collectionName(COLLECTION_LOANS_READ_MODEL), COLLECTION_LOAN_INDEXES);
    const pending: Array<[string, string]> = [];
    await forEachDocument(loans, { index: 'by_account' }, (doc) => {
      const id = key(doc.account_id, doc.customer_id);
      if (!this.borrowers.has(id)) pending.push([doc.account_id, doc.customer_id]);
      this.borrowers.add(id);
    });
    for (let start = 0; start < pending.length; start += LOAD_SLICE) {
      const slice = pending.slice(start, start + LOAD_SLICE);
      const seen = await Promise.all(slice.map(([accountId, customerId]) => this.positions.sighting(accountId, customerId)));
      slice.forEach(([accountId, customerId], index) => this.sightings.set(key(accountId, customerId), seen[index]));
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  private async apply(event: RecordedEvent): Promise<void> {
    const data = event.data as { account_id?: unknown; customer_id?: unknown };
    if (typeof data.account_id !== 'string' || typeof data.customer_id !== 'string') return;
    const id = key(data.account_id, data.customer_id);
    switch (event.type) {
      case 'CollectionLoanRegistered': {
        const { account_id, customer_id } = (event.data as unknown as CollectionLoanRegistered['data']);
        if (this.borrowers.has(id)) return;
        this.borrowers.add(id);
        // Pings recorded before the loan: read once from monitoring.
        this.sightings.set(id, await this.positions.sighting(account_id, customer_id));
        return;
      }
      case 'PingRecorded': {
        if (!this.borrowers.has(id)) return;
        const opened = (await this.sealing.open(event)) as PingRecorded | undefined;
        if (!opened) return;
        const current = this.sightings.get(id) ?? { position: null, drifting: false };
        const recorded_at = opened.data.recorded_at;
        // Late pings never replace a newer position (as drift_state keeps the newest by recorded_at).
        if (current.position && current.position.recorded_at > recorded_at) return;
        this.sightings.set(id, { ...current, position: { lat: opened.data.lat, lng: opened.data.lng, accuracy_m: opened.data.accuracy_m ?? null, recorded_at } });
        return;
      }
      case 'DriftStarted':
      case 'DriftEnded': {
        const current = this.sightings.get(id);
        if (current) this.sightings.set(id, { ...current, drifting: event.type === 'DriftStarted' });
        return;
      }
      case 'CustomerDataErased': {
        const erased = event.data as unknown as CustomerDataErased['data'];
        if (this.borrowers.has(key(erased.account_id, erased.customer_id))) this.sightings.set(id, { position: null, drifting: false });
        return;
      }
      default:
        return;
    }
  }
}

function key(accountId: string, customerId: string): string {
  return `${accountId}\u0000${customerId}`;
}
