import { latLngToCell } from 'h3-js';
import { hexCodeFromCell } from '../../../addressing/src/index.js';
import { assessPortfolio, CONCENTRATION_RESOLUTION, PortfolioAssessor, type AssessmentOptions, type BookLoan, type BorrowerObservation } from './assess-portfolio.js';
import { riskLevel, riskScore } from '../domain/risk.js';
import { ZoneShape } from '../zones/collection-zone.js';
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

/**
 * The assessment written the plain way, a record per loan and whole-array
 * sorts, as the answer is documented (docs/adr/0022): the oracle for the
 * assessor's column-wise storage (docs/adr/0048).
 */
function plainAssessment(loans: readonly BookLoan[], observations: readonly BorrowerObservation[], covered: readonly boolean[] | null, options: AssessmentOptions) {
  const cells = loans.map((loan) => latLngToCell(loan.anchor.lat, loan.anchor.lng, CONCENTRATION_RESOLUTION));
  const perCell = new Map<string, number>();
  for (const cell of cells) perCell.set(cell, (perCell.get(cell) ?? 0) + 1);
  const risks = loans.map((loan, i) => {
    const seen = observations[i];
    const position = seen.consent ? seen.position : null;
    const relation = position ? new ZoneShape(loan.zone).relate(position.lat, position.lng) : null;
    const windowMs = (loan.expected_collection_days ?? options.notSeenDays) * 86_400_000;
    const factors = {
      out_of_zone: relation !== null && !relation.inside,
      not_seen: position === null || options.now.getTime() - Date.parse(position.recorded_at) > windowMs,
      drifting: seen.consent && seen.drifting,
      weather_alert: covered?.[i] === true,
      loans_in_hex: perCell.get(cells[i])!,
    };
    const score = riskScore(factors, options.concentrationMinLoans);
    return {
      loan_id: loan.loan_id,
      customer_id: loan.customer_id,
      score,
      level: riskLevel(score),
      consent: seen.consent,
      ...factors,
      last_seen_at: position?.recorded_at ?? null,
      distance_m: relation?.distance_m ?? null,
      hex_code: hexCodeFromCell(cells[i]),
    };
  });
  const share = (count: number) => (risks.length === 0 ? 0 : Math.round((count / risks.length) * 10_000) / 10_000);
  const factor = (test: (risk: (typeof risks)[number]) => boolean) => {
    const matching = risks.filter(test);
    return { count: matching.length, share: share(matching.length), loan_ids: matching.slice(0, options.limit).map((risk) => risk.loan_id) };
  };
  const ranked = [...risks].sort((a, b) => b.score - a.score || (a.loan_id < b.loan_id ? -1 : a.loan_id > b.loan_id ? 1 : 0));
  return {
    loans_assessed: risks.length,
    levels: { high: risks.filter((r) => r.level === 'high').length, medium: risks.filter((r) => r.level === 'medium').length, low: risks.filter((r) => r.level === 'low').length },
    factors: {
      out_of_zone: factor((risk) => risk.out_of_zone),
      not_seen: { ...factor((risk) => risk.not_seen), days: options.notSeenDays },
      drifting: factor((risk) => risk.drifting),
      weather_alert: covered ? { available: true, ...factor((risk) => risk.weather_alert) } : { available: false, reason: 'weather alerts are not available on this deployment yet', count: null, share: null, loan_ids: [] },
      no_consent: factor((risk) => !risk.consent),
    },
    concentration: {
      resolution: CONCENTRATION_RESOLUTION,
      min_loans: options.concentrationMinLoans,
      hexes_with_loans: perCell.size,
      concentrated_loans: risks.filter((risk) => risk.loans_in_hex >= options.concentrationMinLoans).length,
      top_hexes: [...perCell]
        .sort((a, b) => b[1] - a[1])
        .slice(0, options.limit)
        .map(([cell, count]) => ({ hex_code: hexCodeFromCell(cell), h3_cell: cell, loans: count, share: share(count) })),
    },
    loans: ranked.slice(0, options.limit),
  };
}

describe('PortfolioAssessor', () => {
  it.each([0, 1, 700, 2500])('answers a book of %i loans as the plain record-per-loan assessment does', async (n) => {
    for (const limit of [1, 100, 10_000]) {
      const { now, loans, observations, covered } = book(n, n * 11 + limit);
      const options = { now, notSeenDays: 5, concentrationMinLoans: 4, limit };
      for (const alerts of [covered, null]) {
        const answer = await assessPortfolio(loans, observations, alerts ? { available: true, covered: alerts } : { available: false }, options);
        expect(JSON.stringify(answer)).toBe(JSON.stringify(plainAssessment(loans, observations, alerts, options)));
      }
    }
  });

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
