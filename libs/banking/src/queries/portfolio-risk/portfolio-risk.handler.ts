import { Inject, Optional } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { CUSTOMER_LOCATIONS, type CustomerLocations } from '../../../../monitoring/src/index.js';
import { CLOCK, type Clock } from '../../../../platform/src/index.js';
import { parseLoanId } from '../../domain/loan.js';
import type { KnownPosition } from '../../positions/borrower-positions.js';
import { BorrowerSightings } from '../../public/borrower-sightings.view.js';
import { CollectionsConsents } from '../../public/collections-consents.view.js';
import { CollectionLoans, type BookEntry } from '../../public/collection-loans.read-model.js';
import { ALERT_AREAS, type AlertAreas } from '../../risk/alert-areas.port.js';
import type { BorrowerObservation } from '../../public/assess-portfolio.js';
import { assessPortfolioJob, pageText, type PortfolioRiskJob } from '../../risk/portfolio-risk.job.js';
import { PortfolioRiskPool } from '../../risk/portfolio-risk.pool.js';

/**
 * The book is read a page at a time (the read store's scan, a batch of that
 * many documents: the store waits on I/O between batches — a round trip in
 * MongoDB, a turn of the loop in the embedded store — so no book holds the
 * loop longer than one page), monitoring's last known positions
 * SIGHTINGS_SLICE at a time, and loans named by id IDS_SLICE at a time (one
 * read-store read each, which waits on I/O the same way); the pages are then
 * assessed together on the portfolio-risk thread.
 */
const BOOK_PAGE = 64;
const SIGHTINGS_SLICE = 50;
const IDS_SLICE = 100;

export interface PortfolioRiskOptions {
  loan_ids?: string[];
  not_seen_days: number;
  concentration_min_loans: number;
  limit: number;
}

/** POST /v2/analytics/portfolio-risk: the answer's envelope as bytes (made on the portfolio-risk thread). */
export class PortfolioRiskQuery extends Query<Buffer> {
  constructor(
    readonly accountId: string,
    readonly options: PortfolioRiskOptions,
  ) {
    super();
  }
}

/**
 * POST /v2/analytics/portfolio-risk: the account's book (the collection_loans
 * read model, each loan's borrower and zone opened with the borrower's key:
 * a loan whose borrower was erased is left out, and named in `not_found` when
 * asked for by id) or the loans named, each borrower's last sighting where a
 * loan_collections consent stands (the consents view; positions from the
 * sightings view, else from monitoring, opened with the customer's key), alert coverage through the
 * AlertAreas port, then the assessment (public/assess-portfolio.ts).
 *
 * The book is read here, with plain awaits (the read store, the borrowers'
 * keys, the consents and the sightings view are this thread's: the customer
 * id each consent and sighting is looked up by is opened here, and an opened
 * loan's terms are cached by LoanSealing, so a book read again costs a vault
 * lookup per loan, not an AES-GCM open — docs/adr/0067); each page is
 * written as JSON text as it is read. What is CPU — each loan's cell, zone
 * relation and factors, the scores, the ranking and the answer's JSON — runs
 * on the portfolio-risk thread (risk/portfolio-risk.pool.ts, issue 48),
 * which answers the envelope's bytes.
 */
@QueryHandler(PortfolioRiskQuery)
export class PortfolioRiskHandler implements IQueryHandler<PortfolioRiskQuery> {
  constructor(
    private readonly loans: CollectionLoans,
    @Inject(CUSTOMER_LOCATIONS) private readonly locations: Pick<CustomerLocations, 'lastKnown'>,
    private readonly consents: CollectionsConsents,
    @Inject(BorrowerSightings) private readonly sightings: Pick<BorrowerSightings, 'get'>,
    @Inject(ALERT_AREAS) private readonly alerts: AlertAreas,
    @Inject(CLOCK) private readonly clock: Clock,
    @Optional() @Inject(PortfolioRiskPool) private readonly pool?: PortfolioRiskPool,
  ) {}

  /** The answer's envelope, `{"success":true,"data":…}`, as bytes. */
  async execute({ accountId, options }: PortfolioRiskQuery): Promise<Buffer> {
    const job = await this.read(accountId, options);
    if (this.pool) return this.pool.answer(job);
    return Buffer.from(JSON.stringify({ success: true, data: assessPortfolioJob(job) }), 'utf8');
  }

  /** The answer's data, assessed on the calling thread (for the benchmark and the tests, which run it without the bus). */
  async assess(accountId: string, query: PortfolioRiskOptions) {
    return assessPortfolioJob(await this.read(accountId, query));
  }

  /**
   * The book as the assessment needs it, page by page: what is known of each
   * borrower and the alert coverage of each anchor are read for the page.
   * Only the page's JSON text is kept (risk/portfolio-risk.job.ts): each
   * loan's terms and the fields of a position the assessment reads.
   */
  private async read(accountId: string, query: PortfolioRiskOptions): Promise<PortfolioRiskJob> {
    const now = this.clock.now();
    const job: PortfolioRiskJob = { nowMs: now.getTime(), notSeenDays: query.not_seen_days, concentrationMinLoans: query.concentration_min_loans, limit: query.limit, pages: [], notFound: [] };
    for await (const page of this.pages(accountId, query.loan_ids, job.notFound)) {
      const observations = await this.observe(accountId, page);
      const coverage = await this.alerts.activeAt(page.map((loan) => loan.anchor), now);
      const loans = page.map(({ loan_id, customer_id, zone, anchor, expected_collection_days }) => ({ loan_id, customer_id, zone, anchor, expected_collection_days }));
      job.pages.push(pageText({ loans, observations, covered: coverage.available ? coverage.covered : null }));
    }
    return job;
  }

  /**
   * What is known of each loan's borrower: nothing without a loan_collections
   * consent; else the sightings view's entry, read in place (most borrowers
   * have one), or monitoring's last known position, read SIGHTINGS_SLICE at
   * a time (a read-store get and one AES-GCM open each, ~20 µs).
   */
  private async observe(accountId: string, page: readonly BookEntry[]): Promise<BorrowerObservation[]> {
    const observations = new Array<BorrowerObservation>(page.length);
    let unseen: Promise<void>[] = [];
    for (let i = 0; i < page.length; i++) {
      const customerId = page[i].customer_id;
      if (!this.consents.allows(accountId, customerId)) {
        observations[i] = NO_CONSENT;
        continue;
      }
      const sighting = this.sightings.get(accountId, customerId);
      if (sighting !== undefined) {
        observations[i] = { consent: true, position: plainPosition(sighting.position), drifting: sighting.drifting };
        continue;
      }
      unseen.push(this.locations.lastKnown(accountId, customerId).then(({ position, drifting }) => void (observations[i] = { consent: true, position: plainPosition(position), drifting })));
      if (unseen.length === SIGHTINGS_SLICE) {
        await Promise.all(unseen);
        unseen = [];
      }
    }
    await Promise.all(unseen);
    return observations;
  }

  /** The book a page at a time: the account's whole book, or the loans named (those not found added to `notFound`, in order). */
  private async *pages(accountId: string, loanIds: string[] | undefined, notFound: string[]): AsyncGenerator<BookEntry[]> {
    if (loanIds === undefined) {
      yield* this.loans.ofAccount(accountId, BOOK_PAGE);
      return;
    }
    const unique = [...new Set(loanIds.map((id, index) => parseLoanId(id, `loan_ids[${index}]`)))];
    for (let start = 0; start < unique.length; start += IDS_SLICE) {
      const ids = unique.slice(start, start + IDS_SLICE);
      const found = await this.loans.byIds(accountId, ids);
      ids.forEach((id, index) => found[index] === undefined && notFound.push(id));
      const page = found.filter((doc): doc is BookEntry => doc !== undefined);
      if (page.length > 0) yield page;
    }
  }
}

/** The fields of a position the assessment reads. */
function plainPosition(position: KnownPosition | null): KnownPosition | null {
  return position === null ? null : { lat: position.lat, lng: position.lng, accuracy_m: position.accuracy_m, recorded_at: position.recorded_at };
}

/** Shared by every loan without a loan_collections consent: its position is not used (and not read). */
const NO_CONSENT: BorrowerObservation = Object.freeze({ consent: false, position: null, drifting: false });
