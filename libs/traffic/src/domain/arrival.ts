import type { Decider } from '../../../platform/src/commands/decider.js';

export interface Point {
  lat: number;
  lng: number;
}

/** A traffic sample: the trip's observed time against the static model's time for the same trip. */
export interface TrafficSample {
  observed_s: number;
  static_s: number;
  static_distance_m: number;
  /** observed / static. */
  ratio: number;
  /** H3 res-8 cells the static route passes, in order. */
  cells: string[];
  /** Hour of day (UTC = Ghana time) of the departure. */
  bucket: number;
}

export interface ArrivalRecorded {
  type: 'ArrivalRecorded';
  data: {
    arrival_id: string;
    destination: Point | null;
    end: Point | null;
    origin: Point | null;
    elapsed_s: number | null;
    mode: string;
    depart_at: string | null;
    recorded_at: string;
    /** Metres between where the navigator ended and the destination; null without both. */
    arrival_error_m: number | null;
    /** H3 res-9 cell of the destination (the snapping-quality signal is kept per cell). */
    destination_cell: string | null;
    sample: TrafficSample | null;
    /** Why an origin + elapsed time gave no sample (docs/adr/0025): null when it did or nothing was asked. */
    rejected: string | null;
    /**
     * Keyed hash of who reported it: the calling account, or a legacy key
     * (ADR 0031). Absent on arrivals recorded before it was kept: they count
     * as one reporter, LEGACY_REPORTER.
     */
    reporter?: string;
    /**
     * Every identity of the sender (ADR 0056): the keyed hash of the client
     * address and, with a key, `reporter`. Arrivals sharing one are one
     * reporter, as hazard reports are (ADR 0034). Absent on arrivals recorded
     * before: `[reporter]`.
     */
    reporter_ids?: string[];
    /** The reporter's weight when it reported (ADR 0056, `reporterWeight`): 1 or LOW_TRUST_WEIGHT. Absent on arrivals recorded before: 1. */
    reporter_weight?: number;
  };
}
export type ArrivalEvent = ArrivalRecorded;
export const ARRIVAL_EVENT_TYPES = ['ArrivalRecorded'] as const;

export interface RecordArrival {
  type: 'RecordArrival';
  arrival: Omit<ArrivalRecorded['data'], 'recorded_at'>;
}

export function arrivalStream(arrivalId: string): string {
  return `traffic_arrival-${arrivalId}`;
}

/** An arrival is a fact: recorded once, never refused (interface.md: 204, never 400). */
export const arrivalDecider: Decider<RecordArrival, { recorded: boolean }, ArrivalEvent> = {
  initialState: { recorded: false },
  evolve: () => ({ recorded: true }),
  decide: (command, state, now) => (state.recorded ? [] : [{ type: 'ArrivalRecorded', data: { ...command.arrival, recorded_at: now.toISOString() } }]),
};

/** What a free-tier or young account's arrivals weigh against an established paying account's (ADR 0056). */
export const LOW_TRUST_WEIGHT = 0.5;
/** An account younger than this many days is young (ADR 0056). */
export const ESTABLISHED_ACCOUNT_DAYS = 30;

/** What the reporter's weight is read from: the plan tier and when the account opened (a legacy key: when it was issued). */
export interface ReporterStanding {
  tier: string;
  since: string;
}

/**
 * A reporter's weight when it reports (ADR 0056): LOW_TRUST_WEIGHT on the free
 * tier or younger than ESTABLISHED_ACCOUNT_DAYS, else 1. Without a standing
 * (the operator key, or authentication disabled in development) 1. An
 * unreadable `since` is taken as young.
 */
export function reporterWeight(standing: ReporterStanding | null, now: Date): number {
  if (!standing) return 1;
  const since = Date.parse(standing.since);
  const young = Number.isNaN(since) || now.getTime() - since < ESTABLISHED_ACCOUNT_DAYS * 86_400_000;
  return standing.tier === 'free' || young ? LOW_TRUST_WEIGHT : 1;
}

/** Trips shorter than this say more about the stopwatch than the road. */
export const MIN_SAMPLE_TRIP_S = 120;
export const MIN_SAMPLE_DISTANCE_M = 500;
/** Samples whose ratio falls outside these bounds are rejected (a stop on the way, or a clock error). */
export const MIN_SAMPLE_RATIO = 0.5;
export const MAX_SAMPLE_RATIO = 5;
/** Average speeds (km/h, over the static route's length) no vehicle of the mode reaches in the city. */
export const MAX_PLAUSIBLE_KMH: Record<string, number> = { driving: 120, motor_scooter: 90, truck: 100, cycling: 40, walking: 10 };

/** Why a trip cannot be a traffic sample, or null when it can (docs/adr/0025). */
export function implausibility(mode: string, elapsedS: number, staticS: number, staticDistanceM: number): string | null {
  if (elapsedS < MIN_SAMPLE_TRIP_S) return 'too_short';
  if (staticDistanceM < MIN_SAMPLE_DISTANCE_M) return 'too_near';
  const kmh = (staticDistanceM / elapsedS) * 3.6;
  if (kmh > (MAX_PLAUSIBLE_KMH[mode] ?? 120)) return 'too_fast';
  const ratio = elapsedS / staticS;
  if (ratio < MIN_SAMPLE_RATIO) return 'too_fast';
  if (ratio > MAX_SAMPLE_RATIO) return 'too_slow';
  return null;
}
