import { greatCircleM } from '../../../platform/src/geo/geodesy.js';
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
 *   0.6 × that share + 0.4 × the share of nights spent at home. 0.6 or more
 *   is `verified`, less is `not_verified`.
 */
export const MIN_POSITIONS = 5;
export const MIN_DAYS = 2;
export const UNKNOWN_ACCURACY_M = 100;
export const NIGHT_START_HOUR = 22;
export const NIGHT_END_HOUR = 5;
export const NIGHT_WEIGHT = 0.4;
export const VERIFIED_SCORE = 0.6;
/** How far back recorded pings are read. */
export const RECORDED_PINGS_WINDOW_MS = 30 * 24 * 60 * 60_000;
/** At most this many recorded pings, the newest, are read. */
export const MAX_RECORDED_PINGS = 5000;
/** Positions a request may carry. */
export const MAX_REQUEST_POSITIONS = 500;

export const KYC_RESULTS = ['verified', 'not_verified', 'insufficient_evidence'] as const;
export type KycResult = (typeof KYC_RESULTS)[number];

export interface EvidencePosition {
  lat: number;
  lng: number;
  accuracy_m: number | null;
  recorded_at: string;
  source: 'request' | 'recorded_ping';
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
}

export interface Reason {
  code: string;
  message: string;
}

export interface AddressAssessment {
  result: KycResult;
  score: number | null;
  radius_m: number;
  reasons: Reason[];
  evidence: EvidenceSummary;
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

export function assessAddressEvidence(
  claim: Pick<ClaimedAddress, 'lat' | 'lng' | 'accuracy_m'>,
  positions: readonly EvidencePosition[],
  recorded: EvidenceSummary['recorded_pings'],
): AddressAssessment {
  const radius_m = radiusFor(claim);
  const usable = positions.filter((position) => (position.accuracy_m ?? UNKNOWN_ACCURACY_M) <= POOR_FIX_M);
  const inZone = (position: EvidencePosition) => withinRadius(greatCircleM(claim.lat, claim.lng, position.lat, position.lng), radius_m, position.accuracy_m ?? UNKNOWN_ACCURACY_M);
  const zoned = usable.map((position) => ({ position, in_zone: inZone(position) }));
  const in_zone = zoned.filter((entry) => entry.in_zone).length;
  const days = new Set(usable.map((position) => position.recorded_at.slice(0, 10)));
  const nights = new Map<string, { in_zone: number; all: number }>();
  for (const { position, in_zone: home } of zoned) {
    const night = nightOf(new Date(position.recorded_at), position.lng);
    if (night === undefined) continue;
    const tally = nights.get(night) ?? { in_zone: 0, all: 0 };
    tally.all++;
    if (home) tally.in_zone++;
    nights.set(night, tally);
  }
  const nights_at_home = [...nights.values()].filter((tally) => tally.in_zone * 2 > tally.all).length;
  const evidence: EvidenceSummary = {
    from_request: positions.filter((position) => position.source === 'request').length,
    from_recorded_pings: positions.filter((position) => position.source === 'recorded_ping').length,
    recorded_pings: recorded,
    usable: usable.length,
    in_zone,
    share_in_zone: usable.length > 0 ? round2(in_zone / usable.length) : null,
    days_observed: days.size,
    nights_observed: nights.size,
    nights_at_home,
  };
  const reasons: Reason[] = [];
  if (recorded === 'no_consent') reasons.push({ code: 'recorded_pings_not_consented', message: 'the customer has no granted location consent: recorded pings were not used' });
  if (recorded === 'unavailable') reasons.push({ code: 'recorded_pings_unavailable', message: 'recorded pings could not be read in time: only the positions sent were used' });
  if (radius_m > MAX_RADIUS_M) {
    reasons.push({ code: 'address_too_coarse', message: `the claimed address is only known to within ${radius_m} m: it names an area, not an address` });
    return { result: 'insufficient_evidence', score: null, radius_m, reasons, evidence };
  }
  const dropped = positions.length - usable.length;
  if (dropped > 0) reasons.push({ code: 'imprecise_positions_ignored', message: `${dropped} position(s) less accurate than ${POOR_FIX_M} m were not counted` });
  if (usable.length < MIN_POSITIONS || days.size < MIN_DAYS) {
    reasons.push({
      code: usable.length < MIN_POSITIONS ? 'too_few_positions' : 'too_few_days',
      message: `${usable.length} usable position(s) on ${days.size} day(s); at least ${MIN_POSITIONS} on ${MIN_DAYS} different days are needed`,
    });
    return { result: 'insufficient_evidence', score: null, radius_m, reasons, evidence };
  }
  const share = in_zone / usable.length;
  const score = round2(nights.size > 0 ? (1 - NIGHT_WEIGHT) * share + NIGHT_WEIGHT * (nights_at_home / nights.size) : share);
  reasons.push(
    share >= VERIFIED_SCORE
      ? { code: 'mostly_in_zone', message: `${in_zone} of ${usable.length} usable positions within ${radius_m} m of the address` }
      : { code: 'mostly_outside_zone', message: `only ${in_zone} of ${usable.length} usable positions within ${radius_m} m of the address` },
  );
  if (nights.size > 0) {
    reasons.push(
      nights_at_home * 2 > nights.size
        ? { code: 'home_at_night', message: `at the address on ${nights_at_home} of ${nights.size} night(s) observed` }
        : { code: 'away_at_night', message: `at the address on only ${nights_at_home} of ${nights.size} night(s) observed` },
    );
  } else {
    reasons.push({ code: 'no_night_positions', message: 'no position between 22:00 and 05:00 local time: the score rests on the share in the zone alone' });
  }
  return { result: score >= VERIFIED_SCORE ? 'verified' : 'not_verified', score, radius_m, reasons, evidence };
}
