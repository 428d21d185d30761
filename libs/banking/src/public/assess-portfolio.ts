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
  /** The loan's res-7 cell as a hex code (the record is the answer's loan as it is: no copy is made of it). */
  hex_code: string;
}

const FACTORS = ['out_of_zone', 'not_seen', 'drifting', 'weather_alert', 'no_consent'] as const;

/**
 * A book assessed page by page (docs/adr/0043): `add` reads each loan's
 * factors as its page of the book arrives and keeps one small record per loan,
 * so the page's documents and observations die young. Read whole first, a
 * 10,000-loan book and its observations outlived several scavenges of the
 * young generation, each of which copied them again: 12 ms pauses, 13 a second,
 * with two requests in flight (the fairness bench). `finish` counts the
 * concentration, scores and ranks, yielding to the event loop every
 * millisecond or so (LoopSlicer, sortInSlices).
 */
export class PortfolioAssessor {
  private readonly risks: LoanRisk[] = [];
  /** Each loan's res-7 cell, in the order of `risks`. */
  private readonly cells: string[] = [];
  private readonly perCell = new Map<string, number>();
  /** Hex codes by cell: named once per cell, not per loan (a book's loans share a few hundred cells). */
  private readonly hexCodes = new Map<string, string>();
  private readonly counts: Record<(typeof FACTORS)[number], number> = { out_of_zone: 0, not_seen: 0, drifting: 0, weather_alert: 0, no_consent: 0 };
  private readonly nowMs: number;
  /** Alert coverage was available for every page (and there was one). */
  private alertsAvailable: boolean | undefined;

  constructor(private readonly options: AssessmentOptions) {
    this.nowMs = options.now.getTime();
  }

  /** A page of the book: its loans, what is known of each borrower, and whether an alert covers each anchor (`null`: unavailable). */
  add(loans: readonly BookLoan[], observations: readonly BorrowerObservation[], covered: readonly boolean[] | null): void {
    this.alertsAvailable = (this.alertsAvailable ?? true) && covered !== null;
    for (let i = 0; i < loans.length; i++) {
      const loan = loans[i];
      const seen = observations[i];
      const cell = latLngToCell(loan.anchor.lat, loan.anchor.lng, CONCENTRATION_RESOLUTION);
      this.perCell.set(cell, (this.perCell.get(cell) ?? 0) + 1);
      let hexCode = this.hexCodes.get(cell);
      if (hexCode === undefined) this.hexCodes.set(cell, (hexCode = hexCodeFromCell(cell)));
      this.cells.push(cell);
      const position = seen.consent ? seen.position : null;
      const relation = position ? new ZoneShape(loan.zone).relate(position.lat, position.lng) : null;
      const windowMs = (loan.expected_collection_days ?? this.options.notSeenDays) * 86_400_000;
      // Every field now, in the answer's order (score, level and loans_in_hex are filled in by finish).
      this.risks.push({
        loan_id: loan.loan_id,
        customer_id: loan.customer_id,
        score: 0,
        level: 'low',
        consent: seen.consent,
        out_of_zone: relation !== null && !relation.inside,
        not_seen: position === null || this.nowMs - Date.parse(position.recorded_at) > windowMs,
        drifting: seen.consent && seen.drifting,
        weather_alert: covered?.[i] === true,
        loans_in_hex: 0,
        last_seen_at: position?.recorded_at ?? null,
        distance_m: relation?.distance_m ?? null,
        hex_code: hexCode,
      });
    }
  }

  async finish() {
    const { options, risks, perCell, counts } = this;
    const slicer = new LoopSlicer();
    const total = risks.length;
    const alertsAvailable = this.alertsAvailable === true;
    const levels: Record<RiskLevel, number> = { high: 0, medium: 0, low: 0 };
    for (let i = 0; i < total; i++) {
      if (slicer.due()) await slicer.yield();
      const risk = risks[i];
      if (!alertsAvailable) risk.weather_alert = false;
      risk.loans_in_hex = perCell.get(this.cells[i])!;
      risk.score = riskScore(risk, options.concentrationMinLoans);
      risk.level = riskLevel(risk.score);
      levels[risk.level]++;
      if (risk.out_of_zone) counts.out_of_zone++;
      if (risk.not_seen) counts.not_seen++;
      if (risk.drifting) counts.drifting++;
      if (risk.weather_alert) counts.weather_alert++;
      if (!risk.consent) counts.no_consent++;
    }
    return this.answer(levels, alertsAvailable, slicer);
  }

  private async answer(levels: Record<RiskLevel, number>, alertsAvailable: boolean, slicer: LoopSlicer) {
    const { options, risks, perCell, counts } = this;
    const total = risks.length;
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
    const answered = ranked.slice(0, options.limit);

    return {
      loans_assessed: total,
      levels,
      factors: {
        out_of_zone: factor('out_of_zone', (risk) => risk.out_of_zone),
        not_seen: { ...factor('not_seen', (risk) => risk.not_seen), days: options.notSeenDays },
        drifting: factor('drifting', (risk) => risk.drifting),
        weather_alert: alertsAvailable ? { available: true as const, ...factor('weather_alert', (risk) => risk.weather_alert) } : { available: false as const, reason: 'weather alerts are not available on this deployment yet', count: null, share: null, loan_ids: [] },
        no_consent: factor('no_consent', (risk) => !risk.consent),
      },
      concentration: {
        resolution: CONCENTRATION_RESOLUTION,
        min_loans: options.concentrationMinLoans,
        hexes_with_loans: perCell.size,
        concentrated_loans: concentrated,
        top_hexes: hexes.map(([cell, count]) => ({ hex_code: this.hexCodes.get(cell)!, h3_cell: cell, loans: count, share: share(count) })),
      },
      loans: answered,
    };
  }
}

/** A whole book at once (the benchmark's form): one page through PortfolioAssessor. */
export async function assessPortfolio(loans: readonly BookLoan[], observations: readonly BorrowerObservation[], alerts: AlertCoverage, options: AssessmentOptions) {
  const assessor = new PortfolioAssessor(options);
  assessor.add(loans, observations, alerts.available ? alerts.covered : null);
  return assessor.finish();
}
