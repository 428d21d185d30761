import { greatCircleM } from '../../../platform/src/geo/geodesy.js';
import { VELOCITY_MAX_KMH, VELOCITY_MIN_JUMP_M, type FraudCheck, type FraudCheckName } from './fraud.js';

/**
 * Where a verification's evidence comes from and what a decision may rest on
 * (docs/adr/0030-evidence-decision-ladder-and-provenance.md).
 *
 * - `recorded`: a ping the monitoring context ingested earlier through
 *   POST /v2/monitoring/pings under a standing consent, with its own
 *   `recorded_at` and the time it arrived. It was delivered as it happened.
 * - `asserted`: a position sent in the verification request itself. Anyone
 *   holding a key can type one; it is evidence, never proof.
 *
 * The decision ladder, strongest first: `verified`, `likely`, `inconclusive`,
 * `review`, `failed`. Only recorded evidence reaches `verified`.
 */
export const EVIDENCE_ORIGINS = ['recorded', 'asserted'] as const;
export type EvidenceOrigin = (typeof EVIDENCE_ORIGINS)[number];

export const DECISIONS = ['verified', 'likely', 'inconclusive', 'review', 'failed'] as const;
export type Decision = (typeof DECISIONS)[number];

/** The thresholds the ladder uses, echoed in every answer's evidence summary. */
export const EVIDENCE_THRESHOLDS = {
  /** A position counts (is "usable") when accurate to this; one without an accuracy is taken as 100 m. */
  usable_accuracy_m: 150,
  /** Below this the evidence says nothing either way: `inconclusive`. */
  minimum: { positions: 5, days: 2 },
  /** Score at or above which the evidence places the customer at the address; below it, `failed`. */
  score: 0.6,
  /** What recorded pings alone must show for `verified`. */
  verified: {
    recorded_pings: 10,
    days: 4,
    nights: 3,
    /** From the first recorded ping used to the last. */
    span_hours: 72,
    /** Share of the usable recorded pings within the zone. */
    share_in_zone: 0.6,
    /** More than this share of the recorded nights spent at the address. */
    nights_at_home_share: 0.5,
    /** The median accuracy of the usable recorded pings. */
    median_accuracy_m: 50,
  },
  bursts: {
    /** This many positions with one `recorded_at`. */
    same_timestamp: 3,
    /** With at least `min_positions`, more than `share` of them on one coordinate, to the last decimal. */
    identical_coordinates: { min_positions: 5, share: 0.5 },
    /** Recorded pings covering at least `min_span_hours` that arrived in less than `max_arrival_ratio` of that time. */
    arrival: { min_span_hours: 24, max_arrival_ratio: 0.5 },
  },
} as const;

export const BURST_FLAGS = ['same_timestamp', 'identical_coordinates', 'arrived_faster_than_recorded', 'impossible_travel'] as const;
export type BurstFlag = (typeof BURST_FLAGS)[number];

export interface Reason {
  code: string;
  message: string;
}

export interface EvidencePoint {
  lat: number;
  lng: number;
  accuracy_m: number | null;
  recorded_at: string;
  /** When the service received it (recorded pings; absent for asserted positions and older pings). */
  received_at?: string | null;
  /** The client reported the position as simulated (Android `isMock`, iOS `isSimulatedBySoftware`). */
  mock_location?: boolean | null;
}

export interface BurstCheck {
  flagged: boolean;
  flags: BurstFlag[];
  details: Reason[];
}

/**
 * Bursts: evidence that looks manufactured. Many points with one timestamp
 * (no receiver fixes three times in the same millisecond; positions sent
 * without a time all take the request's), identical coordinates to the last
 * decimal (a device's fixes jitter in the sixth decimal even standing still),
 * recorded pings that arrived much faster than they claim to have been
 * recorded (a month of history posted in an hour), and consecutive points
 * that imply impossible travel. O(n log n): a verification reads up to 5,000
 * recorded pings.
 */
export function checkBursts(points: readonly EvidencePoint[], recorded: readonly EvidencePoint[]): BurstCheck {
  const timed = (point: EvidencePoint): TimedPoint => ({ point, at: Date.parse(point.recorded_at) });
  return burstsOf(points.map(timed), recorded.map(timed));
}

/** A point with its `recorded_at` parsed (Date.parse), so a caller that parsed it already does not again. */
export interface TimedPoint {
  point: EvidencePoint;
  at: number;
}

/** checkBursts on points whose times are parsed: one pass per check, no string made per point. */
export function burstsOf(points: readonly TimedPoint[], recorded: readonly TimedPoint[]): BurstCheck {
  const rules = EVIDENCE_THRESHOLDS.bursts;
  const details: Reason[] = [];
  const flags: BurstFlag[] = [];

  const byTime = new Map<string, number>();
  let sameTime = 0;
  for (const { point } of points) {
    const count = (byTime.get(point.recorded_at) ?? 0) + 1;
    byTime.set(point.recorded_at, count);
    sameTime = Math.max(sameTime, count);
  }
  if (sameTime >= rules.same_timestamp) {
    flags.push('same_timestamp');
    details.push({ code: 'same_timestamp', message: `${sameTime} positions share one recorded_at (${rules.same_timestamp} or more is a burst)` });
  }

  if (points.length >= rules.identical_coordinates.min_positions) {
    // By the numbers themselves: two coordinates print alike exactly when they are the same number (0 and -0 alike,
    // as the Map's SameValueZero takes them), so no text is made per point.
    const byPlace = new Map<number, Map<number, number>>();
    let same = 0;
    for (const { point } of points) {
      let byLng = byPlace.get(point.lat);
      if (byLng === undefined) byPlace.set(point.lat, (byLng = new Map()));
      const count = (byLng.get(point.lng) ?? 0) + 1;
      byLng.set(point.lng, count);
      same = Math.max(same, count);
    }
    if (same / points.length > rules.identical_coordinates.share) {
      flags.push('identical_coordinates');
      details.push({ code: 'identical_coordinates', message: `${same} of ${points.length} positions have identical coordinates to the last decimal` });
    }
  }

  let arrived = 0;
  let [recordedFirst, recordedLast] = [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];
  let [arrivalFirst, arrivalLast] = [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];
  for (const { point, at } of recorded) {
    if (typeof point.received_at !== 'string') continue;
    arrived++;
    const arrival = Date.parse(point.received_at);
    recordedFirst = Math.min(recordedFirst, at);
    recordedLast = Math.max(recordedLast, at);
    arrivalFirst = Math.min(arrivalFirst, arrival);
    arrivalLast = Math.max(arrivalLast, arrival);
  }
  if (arrived >= 2) {
    const recordedSpan = recordedLast - recordedFirst;
    const arrivalSpan = arrivalLast - arrivalFirst;
    if (recordedSpan >= rules.arrival.min_span_hours * 3_600_000 && arrivalSpan < recordedSpan * rules.arrival.max_arrival_ratio) {
      flags.push('arrived_faster_than_recorded');
      details.push({
        code: 'arrived_faster_than_recorded',
        message: `recorded pings covering ${hours(recordedSpan)} h arrived within ${hours(arrivalSpan)} h (less than ${rules.arrival.max_arrival_ratio} of the time they claim)`,
      });
    }
  }

  const ordered = [...points].sort((a, b) => a.point.recorded_at.localeCompare(b.point.recorded_at));
  let fastest = { kmh: 0, jump_m: 0 };
  for (let index = 1; index < ordered.length; index++) {
    const [a, b] = [ordered[index - 1], ordered[index]];
    const implied = impliedSpeedBetween(a.point, a.at, b.point, b.at);
    if (implied.jump_m > VELOCITY_MIN_JUMP_M && implied.kmh > fastest.kmh) fastest = implied;
  }
  if (fastest.kmh > VELOCITY_MAX_KMH) {
    flags.push('impossible_travel');
    const speed = Number.isFinite(fastest.kmh) ? `${Math.round(fastest.kmh)} km/h` : 'no time at all';
    details.push({ code: 'impossible_travel', message: `consecutive positions ${(fastest.jump_m / 1000).toFixed(1)} km apart imply ${speed} (over ${VELOCITY_MAX_KMH} km/h)` });
  }
  return { flagged: flags.length > 0, flags, details };
}

/** What the fraud checks and the client's own mock-location flag do to a decision. */
export interface FraudVerdict {
  /** `failed`: certain (the client itself reported a simulated position); `review`: a signal a person must look at; `none`. */
  outcome: 'none' | 'review' | 'failed';
  reasons: Reason[];
}

const FRAUD_MESSAGES: Record<FraudCheckName, string> = {
  velocity: 'impossible travel against earlier verifications or recorded pings of this customer or device',
  ip_bulk: 'many customers verified from one client IP',
  device_bulk: 'many customers on one device',
  synthetic_identity: 'an identifier shared by several customer ids',
};

/**
 * Certain fraud fails a decision; a fraud signal sends it to review. A
 * skipped (degraded) check is neither: it adds no flag and removes none.
 */
export function fraudVerdict(fraud: Pick<FraudCheck, 'flags'>, mockReported: number): FraudVerdict {
  const reasons: Reason[] = fraud.flags.map((flag) => ({ code: `fraud_${flag}`, message: FRAUD_MESSAGES[flag] }));
  if (mockReported > 0) {
    return { outcome: 'failed', reasons: [{ code: 'mock_location_reported', message: `the client reported ${mockReported} position(s) as simulated (mock location)` }, ...reasons] };
  }
  return { outcome: reasons.length > 0 ? 'review' : 'none', reasons };
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  // A typed array sorts numbers by value without a comparator call per pair.
  const sorted = Float64Array.from(values).sort();
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** impliedSpeedKmh on two points whose times are parsed (accuracy 100 m where none was reported). */
function impliedSpeedBetween(a: EvidencePoint, aAt: number, b: EvidencePoint, bAt: number): { kmh: number; jump_m: number } {
  const jump_m = Math.max(0, greatCircleM(a.lat, a.lng, b.lat, b.lng) - (a.accuracy_m ?? 100) - (b.accuracy_m ?? 100));
  if (jump_m === 0) return NO_JUMP;
  const hours = Math.abs(aAt - bAt) / 3_600_000;
  return { kmh: hours === 0 ? Number.POSITIVE_INFINITY : jump_m / 1000 / hours, jump_m };
}
const NO_JUMP = { kmh: 0, jump_m: 0 };

function hours(ms: number): number {
  return Math.round((ms / 3_600_000) * 10) / 10;
}
