import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { CUSTOMER_LOCATIONS, type CustomerLocations } from '../../../../monitoring/src/index.js';
import { CLOCK, yieldToLoop, type Clock } from '../../../../platform/src/index.js';
import { parseLoanId } from '../../domain/loan.js';
import { BorrowerSightings } from '../../public/borrower-sightings.view.js';
import { CollectionsConsents } from '../../public/collections-consents.view.js';
import { CollectionLoans, type CollectionLoanDoc } from '../../public/collection-loans.read-model.js';
import { ALERT_AREAS, type AlertAreas } from '../../risk/alert-areas.port.js';
import { assessPortfolio, type AlertCoverage, type BorrowerObservation } from '../../public/assess-portfolio.js';

/**
 * Work between two yields to the event loop (issue 31, item 2; docs/adr/0042,
 * 0043): reads answered from memory and LMDB resolve as microtasks, which never
 * let the loop in, so a 10,000-loan book read in one go held it for 100-250 ms.
 * A page of the book (a read-store find of that many documents), sightings
 * (a read-store get and one AES-GCM open each, ~20 µs), loans named by id,
 * and alert-coverage points: each about a millisecond (SLICE_BUDGET_MS).
 */
const BOOK_PAGE = 64;
const SIGHTINGS_SLICE = 50;
const IDS_SLICE = 100;
const ALERT_POINTS_SLICE = 2000;

export interface PortfolioRiskOptions {
  loan_ids?: string[];
  not_seen_days: number;
  concentration_min_loans: number;
  limit: number;
}

/** POST /v2/analytics/portfolio-risk. */
export class PortfolioRiskQuery extends Query<Awaited<ReturnType<PortfolioRiskHandler['assess']>>> {
  constructor(
    readonly accountId: string,
    readonly options: PortfolioRiskOptions,
  ) {
    super();
  }
}

/**
 * POST /v2/analytics/portfolio-risk: the account's book (the collection_loans
 * read model) or the loans named, each borrower's last sighting where a
 * loan_collections consent stands (the consents view; positions from the
 * sightings view, else from monitoring, opened with the customer's key), alert coverage through the
 * AlertAreas port, then the assessment (risk/assess-portfolio.ts).
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
  ) {}

  execute({ accountId, options }: PortfolioRiskQuery) {
    return this.assess(accountId, options);
  }

  /** The assessment (public for the benchmark, which runs it without the bus). */
  async assess(accountId: string, query: PortfolioRiskOptions) {
    const now = this.clock.now();
    const { book, not_found } = await this.book(accountId, query.loan_ids);
    const observations = new Array<BorrowerObservation>(book.length);
    for (let start = 0; start < book.length; start += SIGHTINGS_SLICE) {
      const slice = book.slice(start, start + SIGHTINGS_SLICE);
      const seen = await Promise.all(slice.map(async (loan): Promise<BorrowerObservation> => (this.consents.allows(accountId, loan.customer_id) ? { consent: true, ...(this.sightings.get(accountId, loan.customer_id) ?? (await this.locations.lastKnown(accountId, loan.customer_id))) } : { consent: false, position: null, drifting: false })));
      for (let i = 0; i < seen.length; i++) observations[start + i] = seen[i];
      await yieldToLoop();
    }
    const alerts = await this.alertCoverage(book, now);
    const assessment = await assessPortfolio(book, observations, alerts, { now, notSeenDays: query.not_seen_days, concentrationMinLoans: query.concentration_min_loans, limit: query.limit });
    return { as_of: now.toISOString(), ...assessment, not_found };
  }

  private async book(accountId: string, loanIds: string[] | undefined): Promise<{ book: CollectionLoanDoc[]; not_found: string[] }> {
    if (loanIds === undefined) {
      const book: CollectionLoanDoc[] = [];
      for await (const page of this.loans.ofAccount(accountId, BOOK_PAGE)) {
        for (const loan of page) book.push(loan);
        await yieldToLoop();
      }
      return { book, not_found: [] };
    }
    const unique = [...new Set(loanIds.map((id, index) => parseLoanId(id, `loan_ids[${index}]`)))];
    const found: Array<CollectionLoanDoc | undefined> = [];
    for (let start = 0; start < unique.length; start += IDS_SLICE) {
      for (const doc of await Promise.all(unique.slice(start, start + IDS_SLICE).map((id) => this.loans.byId(accountId, id)))) found.push(doc);
      await yieldToLoop();
    }
    return { book: found.filter((doc): doc is CollectionLoanDoc => doc !== undefined), not_found: unique.filter((_, index) => found[index] === undefined) };
  }

  /** Coverage asked of the port a slice of points at a time (its answer is per point); unavailable if any slice says so. */
  private async alertCoverage(book: readonly CollectionLoanDoc[], now: Date): Promise<AlertCoverage> {
    if (book.length === 0) return { available: false };
    const covered: boolean[] = [];
    for (let start = 0; start < book.length; start += ALERT_POINTS_SLICE) {
      const slice = await this.alerts.activeAt(book.slice(start, start + ALERT_POINTS_SLICE).map((loan) => loan.anchor), now);
      if (!slice.available) return { available: false };
      for (const one of slice.covered) covered.push(one);
      await yieldToLoop();
    }
    return { available: true, covered };
  }
}
