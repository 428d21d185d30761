import { greatCircleM } from '../../../platform/src/geo/geodesy.js';
import { burstsOf, EVIDENCE_THRESHOLDS, fraudVerdict, median, type BurstCheck, type Decision, type EvidenceOrigin, type Reason, type TimedPoint } from './evidence.js';
import type { FraudCheck } from './fraud.js';
import { MAX_RADIUS_M, POOR_FIX_M, radiusFor, withinRadius, type ClaimedAddress } from './proximity.js';

/**
 * Address verification (POST /v2/kyc/verify): does the evidence place the
 * customer at the address they claim? Evidence is the positions sent with
 * the request and, where the customer consented to monitoring, the pings
 * already recorded for them (the last 30 days). docs/adr/0016.
 *
 * - A position is usable when its accuracy is at most 150 m (positions
 *   without an accuracy are taken as 100 m); it is in the zone by the rule of
 *   proximity (`withinRadius`).
 * - Enough evidence: at least 5 usable positions on at least 2 different days.
 *   Less is `insufficient_evidence`, whatever it shows.
 * - Night: 22:00 to 05:00 local solar time (UTC + longitude / 15 h; Ghana's
 *   clock is UTC, and solar time is right across the continent's time zones
 *   to within about an hour). A night is spent at home when most of its usable
 *   positions are in the zone. Where people sleep says more about where they
 *   live than where they are by day.
 * - Score: the share of usable positions in the zone; with nights observed,
 *   0.6 × that share + 0.4 × the share of nights spent at home.
 * - Decision (docs/adr/0030): the ladder of `evidence.ts`. Only recorded
 *   pings reach `verified`; positions the request asserts reach `likely` at
 *   most, and the answer lists what evidence would verify. `result` is the
 *   decision in the older vocabulary, kept for existing clients.
 */
export const MIN_POSITIONS = EVIDENCE_THRESHOLDS.minimum.positions;
export const MIN_DAYS = EVIDENCE_THRESHOLDS.minimum.days;
export const UNKNOWN_ACCURACY_M = 100;
export const NIGHT_START_HOUR = 22;
export const NIGHT_END_HOUR = 5;
export const NIGHT_WEIGHT = 0.4;
export const VERIFIED_SCORE = EVIDENCE_THRESHOLDS.score;
/** How far back recorded pings are read. */
export const RECORDED_PINGS_WINDOW_MS = 30 * 24 * 60 * 60_000;
/** At most this many recorded pings, the newest, are read. */
export const MAX_RECORDED_PINGS = 5000;
/** Positions a request may carry. */
export const MAX_REQUEST_POSITIONS = 500;

export const KYC_RESULTS = ['verified', 'not_verified', 'insufficient_evidence'] as const;
export type KycResult = (typeof KYC_RESULTS)[number];

export type { Reason };

export interface EvidencePosition {
  lat: number;
  lng: number;
  accuracy_m: number | null;
  recorded_at: string;
  source: 'request' | 'recorded_ping';
  /** When a recorded ping reached the service. */
  received_at?: string | null;
  /** The client reported this position as simulated. */
  mock_location?: boolean | null;
}

export const originOf = (position: Pick<EvidencePosition, 'source'>): EvidenceOrigin => (position.source === 'recorded_ping' ? 'recorded' : 'asserted');

/** What the positions of one origin amount to. */
export interface OriginTally {
  positions: number;
  usable: number;
  in_zone: number;
  days: number;
  nights: number;
  nights_at_home: number;
  /** From the first usable position to the last, in hours. */
  span_hours: number;
  /** Median accuracy of the usable positions (100 m where none was reported); null without any. */
  median_accuracy_m: number | null;
}

/** What the evidence amounted to: counts only, never a position (recorded pings stay sealed under the customer's key). */
export interface EvidenceSummary {
  from_request: number;
  from_recorded_pings: number;
  /** Why recorded pings were or were not used: used, no_consent, none_recorded, not_requested, unavailable. */
  recorded_pings: 'used' | 'no_consent' | 'none_recorded' | 'not_requested' | 'unavailable';
  usable: number;
  in_zone: number;
  share_in_zone: number | null;
  days_observed: number;
  nights_observed: number;
  nights_at_home: number;
  /** By origin (docs/adr/0030); absent on verifications recorded before it. */
  recorded?: OriginTally;
  asserted?: OriginTally;
  /** Positions the client reported as simulated. */
  mock_locations?: number;
  bursts?: BurstCheck;
  /** The thresholds the decision applied. */
  thresholds?: typeof EVIDENCE_THRESHOLDS;
}

/** One thing the evidence lacks for `verified`: what it has, what it needs. */
export interface Needed {
  code: string;
  have: number | string;
  need: number | string;
  message: string;
}

export interface AddressAssessment {
  decision: Decision;
  /** The decision in the older vocabulary: `verified` only when `decision` is. */
  result: KycResult;
  score: number | null;
  radius_m: number;
  reasons: Reason[];
  evidence: EvidenceSummary;
  /** Empty when verified, or when no evidence could verify (failed). */
  needed_for_verified: Needed[];
}

/** Local solar hour of an instant at a longitude. */
export function solarHour(at: Date, lng: number): number {
  const hours = at.getUTCHours() + at.getUTCMinutes() / 60 + lng / 15;
  return ((hours % 24) + 24) % 24;
}

/** The night an instant belongs to, named by the local date of its evening; undefined by day. */
export function nightOf(at: Date, lng: number): string | undefined {
  const hour = solarHour(at, lng);
  if (hour < NIGHT_START_HOUR && hour >= NIGHT_END_HOUR) return undefined;
  // Shift by the longitude, then back by 12 h: 22:00 and the following 04:00 fall on the same evening date.
  const local = new Date(at.getTime() + (lng / 15) * 3_600_000 - 12 * 3_600_000);
  return local.toISOString().slice(0, 10);
}

const round2 = (value: number) => Math.round(value * 100) / 100;

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** The largest time value a Date holds (ECMAScript's TimeClip): beyond it, toISOString throws. */
const MAX_TIME_MS = 8.64e15;

/**
 * nightOf for a time in milliseconds, as a number naming the night (its
 * evening's date as days since 1970) instead of the date's text: the same
 * nights, told apart alike, without a Date and a string per position. The
 * arithmetic is solarHour's and nightOf's, on the same integers; a time
 * nightOf would refuse (a RangeError) is handed to it to be refused alike.
 */
function nightNumber(at: number, lng: number): number | undefined {
  const ofDay = ((at % DAY_MS) + DAY_MS) % DAY_MS;
  const hours = Math.floor(ofDay / HOUR_MS) + Math.floor((ofDay % HOUR_MS) / 60_000) / 60 + lng / 15;
  const hour = ((hours % 24) + 24) % 24;
  if (hour < NIGHT_START_HOUR && hour >= NIGHT_END_HOUR) return undefined;
  const local = at + (lng / 15) * HOUR_MS - 12 * HOUR_MS;
  if (!(Math.abs(local) <= MAX_TIME_MS)) {
    nightOf(new Date(at), lng);
    return undefined;
  }
  return Math.floor(Math.trunc(local) / DAY_MS);
}

/** A usable position, judged once (issue 49: a month of recorded pings is thousands of them): its time, zone, day and night. */
interface Judged {
  position: EvidencePosition;
  at: number;
  in_zone: boolean;
  day: string;
  night: number | undefined;
}

/** One origin's (or every) usable positions, added up as they come: what `OriginTally` reports of them. */
class Tally {
  private readonly days = new Set<string>();
  private readonly nights = new Map<number, { in_zone: number; all: number }>();
  private readonly accuracies: number[] = [];
  private first = Number.POSITIVE_INFINITY;
  private last = Number.NEGATIVE_INFINITY;
  private in_zone = 0;

  add(judged: Judged): void {
    if (judged.in_zone) this.in_zone++;
    this.days.add(judged.day);
    this.first = Math.min(this.first, judged.at);
    this.last = Math.max(this.last, judged.at);
    this.accuracies.push(judged.position.accuracy_m ?? UNKNOWN_ACCURACY_M);
    if (judged.night === undefined) return;
    let counts = this.nights.get(judged.night);
    if (counts === undefined) this.nights.set(judged.night, (counts = { in_zone: 0, all: 0 }));
    counts.all++;
    if (judged.in_zone) counts.in_zone++;
  }

  result(positions: number): OriginTally {
    const usable = this.accuracies.length;
    let nightsAtHome = 0;
    for (const counts of this.nights.values()) if (counts.in_zone * 2 > counts.all) nightsAtHome++;
    return {
      positions,
      usable,
      in_zone: this.in_zone,
      days: this.days.size,
      nights: this.nights.size,
      nights_at_home: nightsAtHome,
      span_hours: usable > 0 ? Math.round(((this.last - this.first) / 3_600_000) * 10) / 10 : 0,
      median_accuracy_m: median(this.accuracies),
    };
  }
}

/** What recorded pings lack for `verified` (empty when they suffice). */
export function neededForVerified(recorded: OriginTally, consent: EvidenceSummary['recorded_pings']): Needed[] {
  const rule = EVIDENCE_THRESHOLDS.verified;
  const needed: Needed[] = [];
  if (consent === 'no_consent') needed.push({ code: 'location_consent', have: 'none', need: 'granted', message: 'the customer grants location consent (POST /v2/consent/grant), then their device sends pings (POST /v2/monitoring/pings)' });
  if (consent === 'not_requested') needed.push({ code: 'use_recorded_pings', have: 'false', need: 'true', message: 'verify with use_recorded_pings: only pings recorded through POST /v2/monitoring/pings can verify' });
  const short = (code: string, have: number, need: number, what: string) => {
    if (have < need) needed.push({ code, have, need, message: `${need} ${what} (has ${have})` });
  };
  short('recorded_pings', recorded.usable, rule.recorded_pings, `usable recorded pings, accurate to ${EVIDENCE_THRESHOLDS.usable_accuracy_m} m`);
  short('recorded_days', recorded.days, rule.days, 'different days of recorded pings');
  short('recorded_nights', recorded.nights, rule.nights, 'different nights (22:00-05:00 local) of recorded pings');
  short('recorded_span_hours', recorded.span_hours, rule.span_hours, 'hours from the first recorded ping to the last');
  if (recorded.usable > 0) {
    const share = round2(recorded.in_zone / recorded.usable);
    if (share < rule.share_in_zone) needed.push({ code: 'recorded_share_in_zone', have: share, need: rule.share_in_zone, message: `at least ${rule.share_in_zone} of the recorded pings at the address (has ${share})` });
    if (recorded.nights > 0 && recorded.nights_at_home / recorded.nights <= rule.nights_at_home_share) {
      needed.push({ code: 'recorded_nights_at_home', have: recorded.nights_at_home, need: Math.floor(recorded.nights * rule.nights_at_home_share) + 1, message: `most recorded nights at the address (${recorded.nights_at_home} of ${recorded.nights})` });
    }
    if (recorded.median_accuracy_m !== null && recorded.median_accuracy_m > rule.median_accuracy_m) {
      needed.push({ code: 'recorded_median_accuracy_m', have: recorded.median_accuracy_m, need: rule.median_accuracy_m, message: `recorded pings accurate to ${rule.median_accuracy_m} m at the median (has ${recorded.median_accuracy_m} m)` });
    }
  }
  return needed;
}

const LEGACY_RESULT: Record<Decision, KycResult> = { verified: 'verified', likely: 'not_verified', inconclusive: 'insufficient_evidence', review: 'not_verified', failed: 'not_verified' };

/**
 * Judges the evidence for a claimed address (docs/adr/0030), in this order:
 * a position the client reported as simulated fails it; a fraud or burst flag
 * sends it to review; too little evidence (or an address that names an area)
 * is inconclusive; a score under 0.6 fails it; recorded pings meeting every
 * `verified` threshold, with every fraud check run, verify it; anything else
 * is likely, with what would verify it.
 */
export function assessAddressEvidence(
  claim: Pick<ClaimedAddress, 'lat' | 'lng' | 'accuracy_m'>,
  positions: readonly EvidencePosition[],
  recorded: EvidenceSummary['recorded_pings'],
  fraud: Pick<FraudCheck, 'flags' | 'degraded' | 'degraded_checks'> = { flags: [], degraded: false, degraded_checks: [] },
): AddressAssessment {
  const radius_m = radiusFor(claim);
  // One pass over the positions (each time parsed once): every tally, the mock count, the times the burst checks read.
  const tallies = { all: new Tally(), recorded: new Tally(), asserted: new Tally() };
  const timed: TimedPoint[] = [];
  const recordedTimed: TimedPoint[] = [];
  let usableCount = 0;
  let mock = 0;
  for (const position of positions) {
    const at = Date.parse(position.recorded_at);
    const point = { point: position, at };
    timed.push(point);
    const fromRecording = position.source === 'recorded_ping';
    if (fromRecording) recordedTimed.push(point);
    if (position.mock_location === true) mock++;
    const accuracy = position.accuracy_m ?? UNKNOWN_ACCURACY_M;
    if (!(accuracy <= POOR_FIX_M)) continue;
    usableCount++;
    const judged: Judged = {
      position,
      at,
      in_zone: withinRadius(greatCircleM(claim.lat, claim.lng, position.lat, position.lng), radius_m, accuracy),
      day: position.recorded_at.slice(0, 10),
      night: nightNumber(at, position.lng),
    };
    tallies.all.add(judged);
    (fromRecording ? tallies.recorded : tallies.asserted).add(judged);
  }
  const all = tallies.all.result(positions.length);
  const byOrigin = {
    recorded: tallies.recorded.result(recordedTimed.length),
    asserted: tallies.asserted.result(positions.length - recordedTimed.length),
  };
  const bursts = burstsOf(timed, recordedTimed);
  const evidence: EvidenceSummary = {
    from_request: byOrigin.asserted.positions,
    from_recorded_pings: byOrigin.recorded.positions,
    recorded_pings: recorded,
    usable: all.usable,
    in_zone: all.in_zone,
    share_in_zone: all.usable > 0 ? round2(all.in_zone / all.usable) : null,
    days_observed: all.days,
    nights_observed: all.nights,
    nights_at_home: all.nights_at_home,
    ...byOrigin,
    mock_locations: mock,
    bursts,
    thresholds: EVIDENCE_THRESHOLDS,
  };
  const reasons: Reason[] = [];
  const done = (decision: Decision, score: number | null, needed: Needed[] = []): AddressAssessment => ({
    decision,
    result: LEGACY_RESULT[decision],
    score,
    radius_m,
    reasons,
    evidence,
    needed_for_verified: needed,
  });
  if (recorded === 'no_consent') reasons.push({ code: 'recorded_pings_not_consented', message: 'the customer has no granted location consent: recorded pings were not used' });
  if (recorded === 'unavailable') reasons.push({ code: 'recorded_pings_unavailable', message: 'recorded pings could not be read in time: only the positions sent were used' });

  const verdict = fraudVerdict(fraud, mock);
  if (verdict.outcome === 'failed') {
    reasons.push(...verdict.reasons);
    return done('failed', null);
  }
  if (verdict.outcome === 'review' || bursts.flagged) {
    reasons.push(...verdict.reasons, ...bursts.details);
    return done('review', null);
  }
  if (radius_m > MAX_RADIUS_M) {
    reasons.push({ code: 'address_too_coarse', message: `the claimed address is only known to within ${radius_m} m: it names an area, not an address` });
    return done('inconclusive', null);
  }
  const dropped = positions.length - usableCount;
  if (dropped > 0) reasons.push({ code: 'imprecise_positions_ignored', message: `${dropped} position(s) less accurate than ${POOR_FIX_M} m were not counted` });
  const needed = neededForVerified(byOrigin.recorded, recorded);
  if (all.usable < MIN_POSITIONS || all.days < MIN_DAYS) {
    reasons.push({
      code: all.usable < MIN_POSITIONS ? 'too_few_positions' : 'too_few_days',
      message: `${all.usable} usable position(s) on ${all.days} day(s); at least ${MIN_POSITIONS} on ${MIN_DAYS} different days are needed`,
    });
    return done('inconclusive', null, needed);
  }
  const share = all.in_zone / all.usable;
  const score = round2(all.nights > 0 ? (1 - NIGHT_WEIGHT) * share + NIGHT_WEIGHT * (all.nights_at_home / all.nights) : share);
  reasons.push(
    share >= VERIFIED_SCORE
      ? { code: 'mostly_in_zone', message: `${all.in_zone} of ${all.usable} usable positions within ${radius_m} m of the address` }
      : { code: 'mostly_outside_zone', message: `only ${all.in_zone} of ${all.usable} usable positions within ${radius_m} m of the address` },
  );
  if (all.nights > 0) {
    reasons.push(
      all.nights_at_home * 2 > all.nights
        ? { code: 'home_at_night', message: `at the address on ${all.nights_at_home} of ${all.nights} night(s) observed` }
        : { code: 'away_at_night', message: `at the address on only ${all.nights_at_home} of ${all.nights} night(s) observed` },
    );
  } else {
    reasons.push({ code: 'no_night_positions', message: 'no position between 22:00 and 05:00 local time: the score rests on the share in the zone alone' });
  }
  if (score < VERIFIED_SCORE) return done('failed', score);
  if (needed.length === 0 && !fraud.degraded) {
    reasons.push({ code: 'recorded_evidence_sufficient', message: `${byOrigin.recorded.usable} recorded pings over ${byOrigin.recorded.days} days and ${byOrigin.recorded.nights} nights meet every threshold` });
    return done('verified', score);
  }
  if (byOrigin.recorded.usable === 0) reasons.push({ code: 'asserted_evidence_only', message: 'every position was sent with this request: asserted positions alone are never verified' });
  else if (needed.length > 0) reasons.push({ code: 'recorded_evidence_insufficient', message: `the recorded pings fall short of the verified thresholds: ${needed.map((entry) => entry.code).join(', ')}` });
  if (fraud.degraded) {
    reasons.push({ code: 'fraud_checks_degraded', message: `fraud check(s) ${fraud.degraded_checks.join(', ')} could not run: a verification needs all of them` });
    needed.push({ code: 'fraud_checks_complete', have: 'degraded', need: 'all run', message: 'every fraud check runs (retry when the signals are readable)' });
  }
  return done('likely', score, needed);
}
