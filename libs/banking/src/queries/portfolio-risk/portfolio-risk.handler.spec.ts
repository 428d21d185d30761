import type { BookEntry, CollectionLoans } from '../../public/collection-loans.read-model.js';
import type { CollectionsConsents } from '../../public/collections-consents.view.js';
import { assessPortfolio } from '../../public/assess-portfolio.js';
import type { AlertAreas } from '../../risk/alert-areas.port.js';
import { PortfolioBusyError, PortfolioRiskPool } from '../../risk/portfolio-risk.pool.js';
import { jsonStream } from '../../../../platform/src/index.js';
import { PortfolioRiskHandler, PortfolioRiskQuery } from './portfolio-risk.handler.js';

const loan = (page: number, index: number): BookEntry => ({
  loan_id: `l${page}-${index}`,
  customer_id: `c${page}-${index}`,
  zone: { type: 'point', lat: 5.6, lng: -0.19, radius_m: 500 },
  anchor: { lat: 5.6 + page * 0.1, lng: -0.19 },
  expected_collection_days: null,
});
const NOW = new Date('2026-11-28T00:00:00.000Z');

describe('PortfolioRiskHandler', () => {
  it('reads the book page by page, each page observed and covered before the next is read, and answers as one assessment of the whole book', async () => {
    const log: string[] = [];
    const pages = [0, 1].map((page) => Array.from({ length: 3 }, (_, index) => loan(page, index)));
    const loans = {
      async *ofAccount() {
        for (const [index, page] of pages.entries()) {
          log.push(`read${index}`);
          yield page;
        }
      },
    } as unknown as CollectionLoans;
    // Every other borrower consents; of those, the first of each page was seen far from the zone, the rest never.
    const consents = { allows: (_account: string, customer: string) => !customer.endsWith('-1') } as unknown as CollectionsConsents;
    const far = { lat: 5.7, lng: -0.3, accuracy_m: null, recorded_at: '2026-11-27T00:00:00.000Z' };
    const sightings = {
      get: (_account: string, customer: string) => {
        if (customer.endsWith('-0')) log.push(`observe${customer.slice(1, 2)}`);
        return customer.endsWith('-0') ? { position: far, drifting: false } : undefined;
      },
    };
    let coverage = 0;
    const alerts: AlertAreas = {
      activeAt: async (points) => {
        log.push(`coverage${coverage++}`);
        return { available: true, covered: points.map((_, index) => index === 2) };
      },
    };
    const handler = new PortfolioRiskHandler(loans, { lastKnown: async () => ({ position: null, drifting: false }) } as never, consents, sightings as never, alerts, { now: () => NOW });

    const answer = await handler.assess('acct', { not_seen_days: 7, concentration_min_loans: 2, limit: 100 });

    expect(log).toEqual(['read0', 'observe0', 'coverage0', 'read1', 'observe1', 'coverage1']);
    const book = pages.flat();
    const observations = book.map((entry) => (entry.customer_id.endsWith('-1') ? { consent: false, position: null, drifting: false } : { consent: true, position: entry.customer_id.endsWith('-0') ? far : null, drifting: false }));
    const whole = assessPortfolio(book, observations, { available: true, covered: book.map((_, index) => index % 3 === 2) }, { now: NOW, notSeenDays: 7, concentrationMinLoans: 2, limit: 100 });
    expect(answer).toEqual({ as_of: NOW.toISOString(), ...whole, not_found: [] });
    expect(answer.loans_assessed).toBe(6);
    expect(answer.factors.out_of_zone.count).toBe(2);
    expect(answer.factors.no_consent.count).toBe(2);
    expect(answer.factors.weather_alert).toMatchObject({ available: true, count: 2 });
  });

  it('answers through the pool the bytes the streamed envelope of the same assessment had', async () => {
    const pages = [0, 1, 2].map((page) => Array.from({ length: 4 }, (_, index) => loan(page, index)));
    const loans = {
      async *ofAccount() {
        yield* pages;
      },
    } as unknown as CollectionLoans;
    const consents = { allows: (_account: string, customer: string) => !customer.endsWith('-3') } as unknown as CollectionsConsents;
    const seen = { lat: 5.65, lng: -0.25, accuracy_m: 12, recorded_at: '2026-11-20T10:00:00.000Z' };
    const sightings = { get: (_account: string, customer: string) => (customer.endsWith('-0') ? { position: seen, drifting: true } : undefined) };
    const lastKnown = async () => ({ position: { lat: 5.6, lng: -0.19, accuracy_m: null, recorded_at: '2026-11-27T12:00:00.000Z' }, drifting: false });
    const alerts: AlertAreas = { activeAt: async () => ({ available: false }) };
    const pool = new PortfolioRiskPool(undefined, null);
    const handler = new PortfolioRiskHandler(loans, { lastKnown } as never, consents, sightings as never, alerts, { now: () => NOW }, pool);
    const options = { not_seen_days: 7, concentration_min_loans: 2, limit: 5 };
    try {
      const bytes = await handler.execute(new PortfolioRiskQuery('acct', options));
      const streamed: Buffer[] = [];
      for await (const chunk of jsonStream({ success: true, data: await handler.assess('acct', options) })) streamed.push(chunk as Buffer);
      expect(bytes.toString('utf8')).toBe(Buffer.concat(streamed).toString('utf8'));
      expect(JSON.parse(bytes.toString('utf8')).data).toMatchObject({ loans_assessed: 12, factors: { drifting: { count: 3 }, no_consent: { count: 3 } } });
    } finally {
      await pool.onModuleDestroy();
    }
    // A closed pool refuses with its own 503.
    await expect(pool.answer({ nowMs: NOW.getTime(), notSeenDays: 7, concentrationMinLoans: 2, limit: 5, pages: [], notFound: [] })).rejects.toMatchObject({ code: 'PORTFOLIO_BUSY', status: 503, details: { reason: 'shut_down' } });
    expect(new PortfolioBusyError('x', 'refused').retryAfterSeconds).toBeGreaterThan(0);
  });
});
