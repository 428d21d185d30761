import { latLngToCell } from 'h3-js';
import { hexCodeFromCell } from '../../../addressing/src/index.js';
import { LoopSlicer, sortInSlices } from '../../../platform/src/index.js';
import type { CollectionZone } from '../domain/loan.js';
import { riskLevel, riskScore, type LoanRiskFactors, type RiskLevel } from '../domain/risk.js';
import type { KnownPosition } from '../positions/borrower-positions.js';
import { ZoneShape } from '../zones/collection-zone.js';

/** Concentration is counted per H3 cell at this resolution (~5.2 km² cells). */
export const CONCENTRATION_RESOLUTION = 7;

export interface BookLoan {
  loan_id: string;
  customer_id: string;
  zone: CollectionZone;
  anchor: { lat: number; lng: number };
  expected_collection_days: number | null;
}

/** What is known of a loan's borrower; `consent` false means the position is not used (and is not read). */
export interface BorrowerObservation {
  consent: boolean;
  position: KnownPosition | null;
  drifting: boolean;
}

export type AlertCoverage = { available: false } | { available: true; covered: boolean[] };

export interface AssessmentOptions {
  now: Date;
  notSeenDays: number;
  concentrationMinLoans: number;
  /** At most this many loans (highest scores first) and loan ids per factor in the answer. */
  limit: number;
}

export interface LoanRisk extends LoanRiskFactors {
  loan_id: string;
  customer_id: string;
  score: number;
  level: RiskLevel;
  consent: boolean;
  last_seen_at: string | null;
  distance_m: number | null;
  hex7: string;
}

const FACTORS = ['out_of_zone', 'not_seen', 'drifting', 'weather_alert', 'no_consent'] as const;

/**
 * The assessment of a book (pure but for yielding to the event loop every
 * millisecond or so, LoopSlicer, so a 100,000-loan book never holds it for
 * longer than that: docs/adr/0042, 0043).
 */
export async function assessPortfolio(loans: readonly BookLoan[], observations: readonly BorrowerObservation[], alerts: AlertCoverage, options: AssessmentOptions) {
  const slicer = new LoopSlicer();
  const total = loans.length;
  const cells = new Array<string>(total);
  const perCell = new Map<string, number>();
  for (let i = 0; i < total; i++) {
    if (slicer.due()) await slicer.yield();
    const cell = latLngToCell(loans[i].anchor.lat, loans[i].anchor.lng, CONCENTRATION_RESOLUTION);
    cells[i] = cell;
    perCell.set(cell, (perCell.get(cell) ?? 0) + 1);
  }

  const nowMs = options.now.getTime();
  const risks = new Array<LoanRisk>(total);
  const counts: Record<(typeof FACTORS)[number], number> = { out_of_zone: 0, not_seen: 0, drifting: 0, weather_alert: 0, no_consent: 0 };
  const levels: Record<RiskLevel, number> = { high: 0, medium: 0, low: 0 };
  for (let i = 0; i < total; i++) {
    if (slicer.due()) await slicer.yield();
    const loan = loans[i];
    const seen = observations[i];
    const position = seen.consent ? seen.position : null;
    const relation = position ? new ZoneShape(loan.zone).relate(position.lat, position.lng) : null;
    const windowMs = (loan.expected_collection_days ?? options.notSeenDays) * 86_400_000;
    const factors: LoanRiskFactors = {
      out_of_zone: relation !== null && !relation.inside,
      not_seen: position === null || nowMs - Date.parse(position.recorded_at) > windowMs,
      drifting: seen.consent && seen.drifting,
      weather_alert: alerts.available && alerts.covered[i] === true,
      loans_in_hex: perCell.get(cells[i])!,
    };
    const score = riskScore(factors, options.concentrationMinLoans);
    const level = riskLevel(score);
    risks[i] = { loan_id: loan.loan_id, customer_id: loan.customer_id, score, level, consent: seen.consent, ...factors, last_seen_at: position?.recorded_at ?? null, distance_m: relation?.distance_m ?? null, hex7: cells[i] };
    levels[level]++;
    if (factors.out_of_zone) counts.out_of_zone++;
    if (factors.not_seen) counts.not_seen++;
    if (factors.drifting) counts.drifting++;
    if (factors.weather_alert) counts.weather_alert++;
    if (!seen.consent) counts.no_consent++;
  }

  const share = (count: number) => (total === 0 ? 0 : Math.round((count / total) * 10_000) / 10_000);
  const idsWhere = (test: (risk: LoanRisk) => boolean) => {
    const ids: string[] = [];
    for (const risk of risks) {
      if (ids.length >= options.limit) break;
      if (test(risk)) ids.push(risk.loan_id);
    }
    return ids;
  };
  const factor = (name: (typeof FACTORS)[number], test: (risk: LoanRisk) => boolean) => ({ count: counts[name], share: share(counts[name]), loan_ids: idsWhere(test) });
  const ranked = await sortInSlices(risks, (a, b) => b.score - a.score || (a.loan_id < b.loan_id ? -1 : a.loan_id > b.loan_id ? 1 : 0));
  const hexes = (await sortInSlices([...perCell], (a, b) => b[1] - a[1])).slice(0, options.limit);
  const concentrated = risks.reduce((sum, risk) => sum + (risk.loans_in_hex >= options.concentrationMinLoans ? 1 : 0), 0);
  await slicer.yield();
  const top = ranked.slice(0, options.limit);
  const answered = new Array<Omit<LoanRisk, 'hex7'> & { hex_code: string }>(top.length);
  for (let i = 0; i < top.length; i++) {
    if (slicer.due()) await slicer.yield();
    const { hex7, ...risk } = top[i];
    answered[i] = { ...risk, hex_code: hexCodeFromCell(hex7) };
  }

  return {
    loans_assessed: total,
    levels,
    factors: {
      out_of_zone: factor('out_of_zone', (risk) => risk.out_of_zone),
      not_seen: { ...factor('not_seen', (risk) => risk.not_seen), days: options.notSeenDays },
      drifting: factor('drifting', (risk) => risk.drifting),
      weather_alert: alerts.available ? { available: true as const, ...factor('weather_alert', (risk) => risk.weather_alert) } : { available: false as const, reason: 'weather alerts are not available on this deployment yet', count: null, share: null, loan_ids: [] },
      no_consent: factor('no_consent', (risk) => !risk.consent),
    },
    concentration: {
      resolution: CONCENTRATION_RESOLUTION,
      min_loans: options.concentrationMinLoans,
      hexes_with_loans: perCell.size,
      concentrated_loans: concentrated,
      top_hexes: hexes.map(([cell, count]) => ({ hex_code: hexCodeFromCell(cell), h3_cell: cell, loans: count, share: share(count) })),
    },
    loans: answered,
  };
}
