import { assessPortfolio, PortfolioAssessor, type BookLoan, type BorrowerObservation } from './assess-portfolio.js';
import { seededRandom } from '../../../platform/src/testing/seeded-random.js';

/**
 * The handler feeds the assessor a page of the book at a time (docs/adr/0043);
 * the answer must not depend on the pages: the same text as the whole book in
 * one, for books around the page size, every limit, and alert coverage
 * available, unavailable, or missing for one page (then unavailable for all).
 * (When the change was made, each case was also checked against the
 * assessment as it was before, whole-book: the same text.)
 */
function book(n: number, seed: number) {
  const next = seededRandom(seed);
  const now = new Date('2026-11-27T10:00:00Z');
  const loans: BookLoan[] = Array.from({ length: n }, (_, i) => {
    const anchor = { lat: 5.5 + next() * 0.1, lng: -0.3 + next() * 0.1 };
    return { loan_id: `l${Math.floor(next() * 1e6)}-${i}`, customer_id: `c${i % 50}`, zone: { type: 'point', ...anchor, radius_m: 300 } as BookLoan['zone'], anchor, expected_collection_days: next() < 0.5 ? 7 : null };
  });
  const observations: BorrowerObservation[] = loans.map(() =>
    next() < 0.3
      ? { consent: false, position: null, drifting: false }
      : { consent: true, drifting: next() < 0.2, position: next() < 0.2 ? null : ({ lat: 5.5 + next() * 0.1, lng: -0.3 + next() * 0.1, accuracy_m: 10, recorded_at: new Date(now.getTime() - next() * 20 * 86_400_000).toISOString(), device_id: null } as BorrowerObservation['position']) },
  );
  const covered = loans.map(() => next() < 0.3);
  return { now, loans, observations, covered };
}

describe('PortfolioAssessor', () => {
  it.each([1, 63, 64, 65, 1000, 3000])('answers a book of %i loans fed in pages of 64 exactly as in one page', async (n) => {
    for (const limit of [3, 100, 10_000]) {
      const { now, loans, observations, covered } = book(n, n * 7 + limit);
      const options = { now, notSeenDays: 5, concentrationMinLoans: 4, limit };
      for (const alerts of ['available', 'unavailable', 'missing for one page'] as const) {
        const assessor = new PortfolioAssessor(options);
        for (let start = 0; start < n; start += 64) {
          const missing = alerts === 'unavailable' || (alerts === 'missing for one page' && start === 64 * Math.floor(n / 128));
          assessor.add(loans.slice(start, start + 64), observations.slice(start, start + 64), missing ? null : covered.slice(start, start + 64));
        }
        const whole = await assessPortfolio(loans, observations, alerts === 'available' ? { available: true, covered } : { available: false }, options);
        const paged = await assessor.finish();
        expect(JSON.stringify(paged)).toBe(JSON.stringify(whole));
        expect(paged.factors.weather_alert.available).toBe(alerts === 'available');
      }
    }
  });

  it('says alert coverage is unavailable for an empty book (nothing was asked)', async () => {
    const answer = await new PortfolioAssessor({ now: new Date(), notSeenDays: 5, concentrationMinLoans: 4, limit: 10 }).finish();
    expect(answer).toMatchObject({ loans_assessed: 0, loans: [], factors: { weather_alert: { available: false } } });
  });
});
