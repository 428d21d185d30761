import { LoopLane, SLICE_BUDGET_MS } from '../../../../platform/src/index.js';
import { betweenTurns, logLoopTurns } from '../../../../platform/src/testing/loop-turns.js';
import type { BookEntry, CollectionLoans } from '../../public/collection-loans.read-model.js';
import type { CollectionsConsents } from '../../public/collections-consents.view.js';
import type { AlertAreas } from '../../risk/alert-areas.port.js';
import { PortfolioRiskHandler } from './portfolio-risk.handler.js';

/** Work that outlasts a slice's budget (an ordering test, not a timing one: the budget is what is exceeded). */
function busy(): void {
  const until = performance.now() + SLICE_BUDGET_MS + 0.5;
  while (performance.now() < until);
}

const loan = (page: number, index: number): BookEntry => ({
  loan_id: `l${page}-${index}`,
  customer_id: `c${page}-${index}`,
  zone: { type: 'point', lat: 5.6, lng: -0.19, radius_m: 500 },
  anchor: { lat: 5.6, lng: -0.19 },
  expected_collection_days: null,
});

describe('PortfolioRiskHandler', () => {
  it("lets the event loop turn between a page's steps once each has spent the slice, not only between pages", async () => {
    const log: string[] = [];
    const pages = [0, 1].map((page) => Array.from({ length: 3 }, (_, index) => loan(page, index)));
    // Each step of a page outlasts the slice: reading the page, the sightings, the alert coverage.
    const loans = {
      async *ofAccount() {
        for (const [index, page] of pages.entries()) {
          busy();
          log.push(`read${index}`);
          yield page;
        }
      },
    } as unknown as CollectionLoans;
    const consents = { allows: () => true } as unknown as CollectionsConsents;
    const sightings = {
      get: (_account: string, customer: string) => {
        if (customer.endsWith('-0')) {
          busy();
          log.push(`observe${customer.slice(1, 2)}`);
        }
        return { position: { lat: 5.6, lng: -0.19, recorded_at: '2026-11-27T00:00:00.000Z' }, drifting: false };
      },
    };
    let coverage = 0;
    const alerts: AlertAreas = {
      activeAt: async () => {
        busy();
        log.push(`coverage${coverage++}`);
        return { available: false };
      },
    };
    const handler = new PortfolioRiskHandler(loans, { lastKnown: async () => ({ position: null, drifting: false }) } as never, consents, sightings as never, alerts, { now: () => new Date('2026-11-28T00:00:00.000Z') }, new LoopLane());

    const ticking = logLoopTurns(log);
    const answer = await handler.assess('acct', { not_seen_days: 7, concentration_min_loans: 20, limit: 100 });
    ticking.stop();

    expect(answer.loans_assessed).toBe(6);
    const steps = log.filter((entry) => entry !== 'turn');
    expect(steps).toEqual(['read0', 'observe0', 'coverage0', 'read1', 'observe1', 'coverage1']);
    // Between two steps of the same page, the loop turned: other requests got in.
    for (const part of betweenTurns(log)) expect(part.length).toBeLessThanOrEqual(1);
  });
});
