import type { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { CustomerLocations } from '../../../monitoring/src/index.js';
import { collectionName, forEachDocument, LogFollower, yieldToLoop, type EventRegistry, type EventStore, type JsonLogger, type ReadStore, type RecordedEvent } from '../../../platform/src/index.js';
import type { CollectionLoanRegistered } from '../domain/loan.js';
import type { LoanSealing } from '../loans/loan-sealing.js';
import { COLLECTION_LOAN_INDEXES, COLLECTION_LOANS_READ_MODEL, isLoanDoc, type CollectionLoansDoc } from './collection-loans.read-model.js';
import type { BorrowerSighting } from '../positions/borrower-positions.js';

/** The loan streams this view follows beside monitoring's change feed. */
const LOAN_STREAMS = { streamPrefixes: ['collection_loan-'], handles: ['CollectionLoanRegistered'] };

/** Borrowers loaded between two yields to the event loop at start. */
const LOAD_SLICE = 1000;

/**
 * Every borrower's last sighting, kept current as pings are recorded, so that
 * portfolio risk reads a book from memory instead of asking monitoring for a
 * position per borrower per query (ADR 22, "Speed"). An in-memory view: loaded
 * at start from the `collection_loans` read model and monitoring's
 * CustomerLocations port (each borrower's last known position), then
 * following the port's change feed (positions, drift, erasures) and the loan
 * streams from where the port's last known positions stood. Only borrowers
 * (customers with a registered loan) are held, and only their pings are opened.
 *
 * Erasure: an `erased` change drops the borrower's sighting at once (the
 * key is already destroyed; nothing is persisted here). A borrower the view
 * does not hold (a loan registered after pings it has not seen) is read by
 * the caller through the port, which is always correct.
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
    private readonly locations: Pick<CustomerLocations, 'lastKnown' | 'changes'>,
    /** Opens a loan document's borrower id (sealed under banking's key, docs/adr/0055). */
    private readonly sealing: Pick<LoanSealing, 'borrowerOf'>,
    logger?: Pick<JsonLogger, 'error' | 'warn'>,
  ) {
    const feed = locations.changes.source(['position', 'drift', 'erased']);
    this.follower = new LogFollower(
      events,
      registry,
      readStore,
      {
        name: 'banking borrower sightings',
        streamPrefixes: [...feed.streamPrefixes, ...LOAN_STREAMS.streamPrefixes],
        handles: [...feed.handles, ...LOAN_STREAMS.handles],
        start: { from: 'load', key: locations.changes.lastKnownCheckpoint, load: () => this.load() },
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
    const loans = await this.readStore.collection<CollectionLoansDoc>(collectionName(COLLECTION_LOANS_READ_MODEL), COLLECTION_LOAN_INDEXES);
    const pending: Array<[string, string]> = [];
    await forEachDocument(loans, { index: 'by_account' }, (doc) => {
      // The borrower id is in the clear only in loans registered before sealing; an erased loan names no one.
      if (!isLoanDoc(doc) || doc.erased_at !== null) return;
      const customerId = doc.legacy_terms?.customer_id ?? (doc.borrower_ref === null ? undefined : this.sealing.borrowerOf(doc.account_id, doc.borrower_ref));
      if (customerId === undefined) return;
      const id = key(doc.account_id, customerId);
      if (!this.borrowers.has(id)) pending.push([doc.account_id, customerId]);
      this.borrowers.add(id);
    });
    for (let start = 0; start < pending.length; start += LOAD_SLICE) {
      const slice = pending.slice(start, start + LOAD_SLICE);
      const seen = await Promise.all(slice.map(([accountId, customerId]) => this.locations.lastKnown(accountId, customerId)));
      slice.forEach(([accountId, customerId], index) => this.sightings.set(key(accountId, customerId), seen[index]));
      await yieldToLoop();
    }
  }

  private async apply(event: RecordedEvent): Promise<void> {
    if (event.type === 'CollectionLoanRegistered') {
      const { account_id, customer_id } = event.data as CollectionLoanRegistered['data'];
      const id = key(account_id, customer_id);
      if (this.borrowers.has(id)) return;
      this.borrowers.add(id);
      // Pings recorded before the loan: read once from monitoring.
      this.sightings.set(id, await this.locations.lastKnown(account_id, customer_id));
      return;
    }
    const data = event.data as { account_id?: unknown; customer_id?: unknown };
    // Only borrowers' changes are decoded (a ping's is an AES-GCM open).
    if (typeof data.account_id !== 'string' || typeof data.customer_id !== 'string' || !this.borrowers.has(key(data.account_id, data.customer_id))) return;
    const change = await this.locations.changes.decode(event);
    if (!change) return;
    const id = key(change.account_id, change.customer_id);
    switch (change.kind) {
      case 'position': {
        const current = this.sightings.get(id) ?? { position: null, drifting: false };
        // Late pings never replace a newer position (as monitoring keeps the newest by recorded_at).
        if (current.position && current.position.recorded_at > change.position.recorded_at) return;
        this.sightings.set(id, { ...current, position: change.position });
        return;
      }
      case 'drift': {
        const current = this.sightings.get(id);
        if (current) this.sightings.set(id, { ...current, drifting: change.drifting });
        return;
      }
      case 'erased':
        this.sightings.set(id, { position: null, drifting: false });
        return;
      default:
        return;
    }
  }
}

function key(accountId: string, customerId: string): string {
  return `${accountId}\u0000${customerId}`;
}
