import { latLngToCell } from 'h3-js';
import { hexCodeFromCell } from '../../../addressing/src/index.js';
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
type Factor = (typeof FACTORS)[number];

/** A loan's factors, one bit each, in `PortfolioAssessor.flags`. */
const CONSENT = 1;
const OUT_OF_ZONE = 2;
const NOT_SEEN = 4;
const DRIFTING = 8;
const WEATHER_ALERT = 16;
const FACTOR_BITS: Record<Factor, number> = { out_of_zone: OUT_OF_ZONE, not_seen: NOT_SEEN, drifting: DRIFTING, weather_alert: WEATHER_ALERT, no_consent: CONSENT };

/**
 * A book assessed page by page (docs/adr/0043): `add` reads each loan's
 * factors as its page of the book arrives, so the page's documents and
 * observations die young. Read whole first, a 10,000-loan book and its
 * observations outlived several scavenges of the young generation, each of
 * which copied them again: 12 ms pauses, 13 a second, with two requests in
 * flight (the fairness bench). What is kept per loan is column-wise
 * (docs/adr/0048): its ids and last sighting (strings the answer needs), and
 * its factors, cell and distance in typed arrays, which the scavenger neither
 * copies nor scans; a record of the answer's shape is made only for the loans
 * answered. `finish` counts the concentration, scores and ranks.
 */
export class PortfolioAssessor {
  private size = 0;
  private readonly loanIds: string[] = [];
  private readonly customerIds: string[] = [];
  /** The position's `recorded_at` (the observation's own string, not a copy), or null. */
  private readonly lastSeen: (string | null)[] = [];
  private flags = new Uint8Array(1024);
  /** Distance to the zone, or NaN where there is no position. */
  private distances = new Float64Array(1024);
  /** Each loan's res-7 cell, as an index into `cellNames`. */
  private cells = new Int32Array(1024);
  private readonly cellIndex = new Map<string, number>();
  private readonly cellNames: string[] = [];
  private readonly cellCounts: number[] = [];
  /** Hex codes by cell index: named once per cell, not per loan (a book's loans share a few hundred cells). */
  private readonly hexCodes: string[] = [];
  private readonly counts: Record<Factor, number> = { out_of_zone: 0, not_seen: 0, drifting: 0, weather_alert: 0, no_consent: 0 };
  private readonly nowMs: number;
  /** Alert coverage was available for every page (and there was one). */
  private alertsAvailable: boolean | undefined;

  constructor(private readonly options: AssessmentOptions) {
    this.nowMs = options.now.getTime();
  }

  /** A page of the book: its loans, what is known of each borrower, and whether an alert covers each anchor (`null`: unavailable). */
  add(loans: readonly BookLoan[], observations: readonly BorrowerObservation[], covered: readonly boolean[] | null): void {
    this.alertsAvailable = (this.alertsAvailable ?? true) && covered !== null;
    this.reserve(this.size + loans.length);
    for (let i = 0; i < loans.length; i++) {
      const loan = loans[i];
      const seen = observations[i];
      const at = this.size++;
      this.cells[at] = this.cellOf(latLngToCell(loan.anchor.lat, loan.anchor.lng, CONCENTRATION_RESOLUTION));
      const position = seen.consent ? seen.position : null;
      const relation = position ? new ZoneShape(loan.zone).relate(position.lat, position.lng) : null;
      const windowMs = (loan.expected_collection_days ?? this.options.notSeenDays) * 86_400_000;
      let flags = 0;
      if (seen.consent) flags |= CONSENT;
      if (relation !== null && !relation.inside) flags |= OUT_OF_ZONE;
      if (position === null || this.nowMs - Date.parse(position.recorded_at) > windowMs) flags |= NOT_SEEN;
      if (seen.consent && seen.drifting) flags |= DRIFTING;
      if (covered?.[i] === true) flags |= WEATHER_ALERT;
      this.flags[at] = flags;
      this.distances[at] = relation?.distance_m ?? Number.NaN;
      this.loanIds.push(loan.loan_id);
      this.customerIds.push(loan.customer_id);
      this.lastSeen.push(position?.recorded_at ?? null);
    }
  }

  finish() {
    const { options, flags, cells, cellCounts, counts, size } = this;
    const alertsAvailable = this.alertsAvailable === true;
    const levels: Record<RiskLevel, number> = { high: 0, medium: 0, low: 0 };
    const scores = new Uint8Array(size);
    // One record of the factors, reused for every loan's score.
    const factors: LoanRiskFactors = { out_of_zone: false, not_seen: false, drifting: false, weather_alert: false, loans_in_hex: 0 };
    for (let i = 0; i < size; i++) {
      if (!alertsAvailable) flags[i] &= ~WEATHER_ALERT;
      const bits = flags[i];
      factors.out_of_zone = (bits & OUT_OF_ZONE) !== 0;
      factors.not_seen = (bits & NOT_SEEN) !== 0;
      factors.drifting = (bits & DRIFTING) !== 0;
      factors.weather_alert = (bits & WEATHER_ALERT) !== 0;
      factors.loans_in_hex = cellCounts[cells[i]];
      const score = riskScore(factors, options.concentrationMinLoans);
      scores[i] = score;
      levels[riskLevel(score)]++;
      if (factors.out_of_zone) counts.out_of_zone++;
      if (factors.not_seen) counts.not_seen++;
      if (factors.drifting) counts.drifting++;
      if (factors.weather_alert) counts.weather_alert++;
      if ((bits & CONSENT) === 0) counts.no_consent++;
    }
    return this.answer(levels, scores, alertsAvailable);
  }

  /** The loan at `i` in the answer's shape, every field in the answer's order. */
  private risk(i: number, scores: Uint8Array): LoanRisk {
    const bits = this.flags[i];
    const distance = this.distances[i];
    return {
      loan_id: this.loanIds[i],
      customer_id: this.customerIds[i],
      score: scores[i],
      level: riskLevel(scores[i]),
      consent: (bits & CONSENT) !== 0,
      out_of_zone: (bits & OUT_OF_ZONE) !== 0,
      not_seen: (bits & NOT_SEEN) !== 0,
      drifting: (bits & DRIFTING) !== 0,
      weather_alert: (bits & WEATHER_ALERT) !== 0,
      loans_in_hex: this.cellCounts[this.cells[i]],
      last_seen_at: this.lastSeen[i],
      distance_m: Number.isNaN(distance) ? null : distance,
      hex_code: this.hexCodes[this.cells[i]],
    };
  }

  private answer(levels: Record<RiskLevel, number>, scores: Uint8Array, alertsAvailable: boolean) {
    const { options, flags, loanIds, cellCounts, counts, size } = this;
    const share = (count: number) => (size === 0 ? 0 : Math.round((count / size) * 10_000) / 10_000);
    /** The first `limit` loan ids of the book (in its order) with the factor's bit set (`no_consent`: the consent bit clear). */
    const idsWhere = (name: Factor) => {
      const bit = FACTOR_BITS[name];
      const want = name === 'no_consent' ? 0 : bit;
      const ids: string[] = [];
      for (let i = 0; i < size && ids.length < options.limit; i++) if ((flags[i] & bit) === want) ids.push(loanIds[i]);
      return ids;
    };
    const factor = (name: Factor) => ({ count: counts[name], share: share(counts[name]), loan_ids: idsWhere(name) });
    const order = Array.from({ length: size }, (_, i) => i);
    const ranked = order.sort((a, b) => scores[b] - scores[a] || (loanIds[a] < loanIds[b] ? -1 : loanIds[a] > loanIds[b] ? 1 : 0));
    const cellOrder = cellCounts.map((_, cell) => cell).sort((a, b) => cellCounts[b] - cellCounts[a]);
    let concentrated = 0;
    for (let i = 0; i < size; i++) if (cellCounts[this.cells[i]] >= options.concentrationMinLoans) concentrated++;
    const answered = ranked.slice(0, options.limit).map((i) => this.risk(i, scores));

    return {
      loans_assessed: size,
      levels,
      factors: {
        out_of_zone: factor('out_of_zone'),
        not_seen: { ...factor('not_seen'), days: options.notSeenDays },
        drifting: factor('drifting'),
        weather_alert: alertsAvailable ? { available: true as const, ...factor('weather_alert') } : { available: false as const, reason: 'weather alerts are not available on this deployment yet', count: null, share: null, loan_ids: [] },
        no_consent: factor('no_consent'),
      },
      concentration: {
        resolution: CONCENTRATION_RESOLUTION,
        min_loans: options.concentrationMinLoans,
        hexes_with_loans: cellCounts.length,
        concentrated_loans: concentrated,
        top_hexes: cellOrder.slice(0, options.limit).map((cell) => ({ hex_code: this.hexCodes[cell], h3_cell: this.cellNames[cell], loans: cellCounts[cell], share: share(cellCounts[cell]) })),
      },
      loans: answered,
    };
  }

  /** The index of `cell` (counted once more), named the first time it is met. */
  private cellOf(cell: string): number {
    let index = this.cellIndex.get(cell);
    if (index === undefined) {
      index = this.cellNames.length;
      this.cellIndex.set(cell, index);
      this.cellNames.push(cell);
      this.cellCounts.push(0);
      this.hexCodes.push(hexCodeFromCell(cell));
    }
    this.cellCounts[index]++;
    return index;
  }

  /** Room for `needed` loans in the typed columns (doubling). */
  private reserve(needed: number): void {
    if (needed <= this.flags.length) return;
    let capacity = this.flags.length * 2;
    while (capacity < needed) capacity *= 2;
    const grow = <T extends Uint8Array | Float64Array | Int32Array>(from: T, to: T) => {
      to.set(from);
      return to;
    };
    this.flags = grow(this.flags, new Uint8Array(capacity));
    this.distances = grow(this.distances, new Float64Array(capacity));
    this.cells = grow(this.cells, new Int32Array(capacity));
  }
}

/** A whole book at once (the benchmark's form): one page through PortfolioAssessor. */
export function assessPortfolio(loans: readonly BookLoan[], observations: readonly BorrowerObservation[], alerts: AlertCoverage, options: AssessmentOptions) {
  const assessor = new PortfolioAssessor(options);
  assessor.add(loans, observations, alerts.available ? alerts.covered : null);
  return assessor.finish();
}
