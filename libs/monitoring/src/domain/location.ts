import { cellToLatLng, getHexagonEdgeLengthAvg, getResolution, gridDistance, isValidCell, latLngToCell, UNITS } from 'h3-js';
import type { Decider } from '../../../platform/src/commands/decider.js';
import { DomainError, InvalidParamError } from '../../../platform/src/errors.js';
import { greatCircleM, isLatitude, isLongitude } from '../../../platform/src/geo/geodesy.js';
import { CALLER_ID, callerIdMessage } from '../../../platform/src/ids/caller-id.js';

/**
 * A monitored customer's location history and what is derived from it at
 * ingestion: drift out of the registered zone and geofence entries. One
 * stream per (account, customer): `location-<account>:<customer>`. This module
 * sees events in the clear; the location stream codec
 * (`location-stream/location-codec.ts`) seals their location fields with the
 * customer's data key before they are stored and opens them when read (ADR 12).
 */

export const MAX_PINGS_PER_REQUEST = 1000;
/** A phone's clock may run a little fast; anything further ahead is a bad timestamp. */
export const MAX_CLOCK_SKEW_MS = 5 * 60_000;
/** Offline phones upload late, but not months late. */
export const MAX_PING_AGE_MS = 30 * 24 * 3_600_000;
export const MAX_ACCURACY_M = 100_000;
export const DEVICE_ID = CALLER_ID;

/** Zones given as a point use this H3 resolution (edge ≈ 174 m): a neighbourhood, not an address. */
export const DEFAULT_ZONE_RESOLUTION = 9;
export const DEFAULT_TOLERANCE_HOPS = 2;
export const MAX_TOLERANCE_HOPS = 10_000;
export const MIN_ZONE_RESOLUTION = 5;

/** A ping as the caller sent it, once validated; `recorded_at` defaults to the time it was received. */
// A type, not an interface: event payloads built on it stay comparable with the log's Record<string, unknown> (interfaces have no implicit index signature).
export type Ping = {
  lat: number;
  lng: number;
  accuracy_m: number | null;
  recorded_at: string;
  device_id: string | null;
  /**
   * The client's own flag that the fix was simulated (Android `Location.isMock`, iOS
   * `CLLocationSourceInformation.isSimulatedBySoftware`); absent when the client did not say (docs/adr/0030).
   */
  mock_location?: boolean;
};

export interface PingRecorded {
  type: 'PingRecorded';
  /** `ping_id` is a keyed hash of the ping's content (see `location-stream/location-sealing.ts`): equal pings, equal ids. */
  data: Ping & { account_id: string; customer_id: string; ping_id: string; received_at: string };
}
export interface ZoneRegistered {
  type: 'ZoneRegistered';
  data: { account_id: string; customer_id: string; home_cell: string; tolerance_hops: number; registered_at: string };
}
export interface DriftStarted {
  type: 'DriftStarted';
  data: { account_id: string; customer_id: string; home_cell: string; current_cell: string; distance_hops: number; occurred_at: string };
}
export interface DriftEnded {
  type: 'DriftEnded';
  data: { account_id: string; customer_id: string; home_cell: string; current_cell: string; distance_hops: number; occurred_at: string };
}
export interface GeofenceEntered {
  type: 'GeofenceEntered';
  data: { account_id: string; customer_id: string; fence_id: string; fence_type: string; loan_id: string | null; lat: number; lng: number; occurred_at: string };
}
export interface GeofenceLeft {
  type: 'GeofenceLeft';
  data: { account_id: string; customer_id: string; fence_id: string; occurred_at: string };
}
/** Written by a consent revoke after the ConsentRevoked event: it fences off ping appends that read the consent before it (ADR 12). */
export interface CollectionStopped {
  type: 'CollectionStopped';
  data: { account_id: string; customer_id: string; stopped_at: string };
}

export type LocationEvent = PingRecorded | ZoneRegistered | DriftStarted | DriftEnded | GeofenceEntered | GeofenceLeft | CollectionStopped;
export const LOCATION_EVENT_TYPES = [
  'PingRecorded',
  'ZoneRegistered',
  'DriftStarted',
  'DriftEnded',
  'GeofenceEntered',
  'GeofenceLeft',
  'CollectionStopped',
] as const satisfies readonly LocationEvent['type'][];

export interface Zone {
  home_cell: string;
  tolerance_hops: number;
  registered_at: string;
}

export interface LocationState {
  zone: Zone | null;
  /** Set while the customer is out of the zone: the DriftStarted that opened the excursion. */
  drifting: { since: string; current_cell: string; distance_hops: number } | null;
  /** The newest ping by `recorded_at`; an older ping arriving late does not replace it. */
  latest: Pick<Ping, 'lat' | 'lng' | 'recorded_at'> | null;
  /** Fences the latest ping is inside. */
  inside_fences: string[];
  /**
   * Ids of the pings this state has folded. A stored snapshot starts with
   * none: the location codec files the ids a snapshot covers in its ping-id
   * index, and a batch's `prepare` looks them up there (`known`).
   */
  seen_ping_ids: readonly string[];
}

export const initialLocationState: LocationState = { zone: null, drifting: null, latest: null, inside_fences: [], seen_ping_ids: [] };

export function locationStream(accountId: string, customerId: string): string {
  return `location-${accountId}:${customerId}`;
}

/** The (account, customer) of a location stream name. Account ids hold no colon; customer ids may. */
export function locationStreamOwner(stream: string): { account_id: string; customer_id: string } {
  const separator = stream.indexOf(':');
  if (!stream.startsWith('location-') || separator < 0) throw new Error(`${stream} is not a location stream`);
  return { account_id: stream.slice('location-'.length, separator), customer_id: stream.slice(separator + 1) };
}

export function evolveLocation(state: LocationState, event: LocationEvent): LocationState {
  switch (event.type) {
    case 'PingRecorded': {
      const { lat, lng, recorded_at, ping_id } = event.data;
      const newer = state.latest === null || recorded_at >= state.latest.recorded_at;
      return { ...state, seen_ping_ids: [...state.seen_ping_ids, ping_id], latest: newer ? { lat, lng, recorded_at } : state.latest };
    }
    case 'ZoneRegistered': {
      const { home_cell, tolerance_hops, registered_at } = event.data;
      // A new zone starts a new watch: whether the customer is out of it is decided by the next ping.
      return { ...state, zone: { home_cell, tolerance_hops, registered_at }, drifting: null };
    }
    case 'DriftStarted': {
      const { occurred_at, current_cell, distance_hops } = event.data;
      return { ...state, drifting: { since: occurred_at, current_cell, distance_hops } };
    }
    case 'DriftEnded':
      return { ...state, drifting: null };
    case 'GeofenceEntered':
      return state.inside_fences.includes(event.data.fence_id) ? state : { ...state, inside_fences: [...state.inside_fences, event.data.fence_id] };
    case 'GeofenceLeft':
      return { ...state, inside_fences: state.inside_fences.filter((id) => id !== event.data.fence_id) };
    case 'CollectionStopped':
      return state;
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

/** What the caller learns about each ping of a request, in request order. */
export type PingOutcome =
  | { index: number; status: 'accepted'; ping_id: string; late: boolean }
  | { index: number; status: 'duplicate'; ping_id: string }
  | { index: number; status: 'refused'; error: { code: string; message: string; field?: string } };

/** A validated ping and where it stood in the request. */
export interface IndexedPing extends Ping {
  index: number;
}

/** A ping with what `prepare` learned about it: its id (a keyed hash, see `location-stream/location-sealing.ts`) and the fences it lies in. */
export interface IdentifiedPing extends IndexedPing {
  ping_id: string;
  fences: FenceMatch[];
}

export interface FenceMatch {
  fence_id: string;
  fence_type: string;
  loan_id: string | null;
}

/**
 * What a ping batch's `prepare` read after the stream (ADR 12, "Ordering
 * against a revoke"): whether the consent allows collecting location now, and
 * only then the pings with their ids (their key exists from then on) and the
 * ids among them already stored beyond those the state has seen.
 */
export type PreparedPings = { collecting: false } | { collecting: true; pings: IdentifiedPing[]; known: ReadonlySet<string> };

export type LocationCommand =
  | {
      type: 'RecordPings';
      account_id: string;
      customer_id: string;
      pings: IndexedPing[];
      /** Filled by the command's `prepare`; absent, nothing is collected. */
      prepared?: PreparedPings;
    }
  | {
      type: 'RegisterZone';
      account_id: string;
      customer_id: string;
      home_cell: string;
      tolerance_hops: number;
      /** Whether the consent, read after the stream, allows collecting location now; absent, nothing is collected. */
      collecting?: boolean;
    }
  /** A consent revoke's marker (ADR 12): it fences off ping appends that read the consent before the revoke. */
  | { type: 'StopCollection'; account_id: string; customer_id: string };
export type RecordPings = Extract<LocationCommand, { type: 'RecordPings' }>;
export type RegisterZone = Extract<LocationCommand, { type: 'RegisterZone' }>;

/** The location stream's aggregate, as the command pipeline runs it (through the location codec). */
export const locationDecider: Decider<LocationCommand, LocationState, LocationEvent> = {
  initialState: initialLocationState,
  evolve: evolveLocation,
  decide(command, state, now) {
    switch (command.type) {
      case 'RecordPings':
        return decidePings(state, command, now);
      case 'RegisterZone': {
        // The zone is checked before the consent, so a bad zone is a 400 whatever the consent.
        const event = registerZone({ ...command, now });
        if (!command.collecting) throw new ConsentRequiredError(command.customer_id);
        return [event];
      }
      case 'StopCollection':
        return [{ type: 'CollectionStopped', data: { account_id: command.account_id, customer_id: command.customer_id, stopped_at: now.toISOString() } }];
      default: {
        const _exhaustive: never = command;
        return _exhaustive;
      }
    }
  },
};

/**
 * Records the new pings of one customer and derives drift and geofence
 * transitions from them. Pings are taken in `recorded_at` order (an offline
 * phone's batch arrives late and in any order); a ping older than the newest
 * one already known is stored in its place in history but changes nothing
 * about the present, so a late upload cannot raise a stale alarm. Leaving the
 * zone emits one DriftStarted per excursion, not one per ping; coming back
 * emits DriftEnded. Entering a fence emits one GeofenceEntered (the
 * geofence_breach webhook); staying inside emits nothing more; leaving emits
 * GeofenceLeft, so a later re-entry is a new breach. A ping whose id is known
 * (stored before, or earlier in the batch) is a duplicate and stores nothing.
 */
export function decidePings(state: LocationState, command: RecordPings, now: Date): LocationEvent[] {
  const { account_id, customer_id, prepared } = command;
  if (!prepared?.collecting) throw new ConsentRequiredError(customer_id);
  const ordered = [...prepared.pings].sort(inRecordedOrder);
  const seen = new Set(state.seen_ping_ids);
  const events: LocationEvent[] = [];
  let current = state;
  const emit = (event: LocationEvent) => {
    events.push(event);
    current = evolveLocation(current, event);
  };
  const received_at = now.toISOString();
  for (const ping of ordered) {
    if (seen.has(ping.ping_id) || prepared.known.has(ping.ping_id)) continue;
    seen.add(ping.ping_id);
    const late = current.latest !== null && ping.recorded_at < current.latest.recorded_at;
    const { index: _index, fences, ...recorded } = ping;
    emit({ type: 'PingRecorded', data: { account_id, customer_id, ...recorded, received_at } });
    if (late) continue;
    const at = ping.recorded_at;
    if (current.zone) {
      const { home_cell, tolerance_hops } = current.zone;
      const current_cell = latLngToCell(ping.lat, ping.lng, getResolution(home_cell));
      const distance_hops = hopsBetween(home_cell, current_cell);
      const outside = distance_hops > tolerance_hops;
      if (outside && !current.drifting) emit({ type: 'DriftStarted', data: { account_id, customer_id, home_cell, current_cell, distance_hops, occurred_at: at } });
      if (!outside && current.drifting) emit({ type: 'DriftEnded', data: { account_id, customer_id, home_cell, current_cell, distance_hops, occurred_at: at } });
    }
    const inside = new Set(fences.map((fence) => fence.fence_id));
    for (const fence_id of current.inside_fences) {
      if (!inside.has(fence_id)) emit({ type: 'GeofenceLeft', data: { account_id, customer_id, fence_id, occurred_at: at } });
    }
    for (const fence of fences) {
      if (current.inside_fences.includes(fence.fence_id)) continue;
      emit({
        type: 'GeofenceEntered',
        data: { account_id, customer_id, fence_id: fence.fence_id, fence_type: fence.fence_type, loan_id: fence.loan_id, lat: ping.lat, lng: ping.lng, occurred_at: at },
      });
    }
  }
  return events;
}

/**
 * What the caller learns about each prepared ping, in request order, from
 * what was decided: stored (and whether it was late: older than the newest
 * ping known before the batch, which is what `decidePings` compares with,
 * since a batch is taken oldest first), or a duplicate. Of equal pings in one
 * batch the first in the request is the one stored.
 */
export function pingOutcomes(pings: readonly IdentifiedPing[], previous: LocationState, events: readonly LocationEvent[]): PingOutcome[] {
  const stored = new Set(events.flatMap((event) => (event.type === 'PingRecorded' ? [event.data.ping_id] : [])));
  const newest = previous.latest?.recorded_at;
  return [...pings]
    .sort((a, b) => a.index - b.index)
    .map((ping): PingOutcome => {
      if (!stored.delete(ping.ping_id)) return { index: ping.index, status: 'duplicate', ping_id: ping.ping_id };
      return { index: ping.index, status: 'accepted', ping_id: ping.ping_id, late: newest !== undefined && ping.recorded_at < newest };
    });
}

function inRecordedOrder(a: IndexedPing, b: IndexedPing): number {
  return a.recorded_at < b.recorded_at ? -1 : a.recorded_at > b.recorded_at ? 1 : a.index - b.index;
}

/**
 * H3 grid distance between two cells of one resolution. Far apart (across
 * icosahedron faces or pentagons) H3 cannot count hops; the distance is then
 * estimated from the great-circle distance and the resolution's mean
 * centre-to-centre spacing, which is all drift needs: "far outside".
 */
export function hopsBetween(a: string, b: string): number {
  try {
    return gridDistance(a, b);
  } catch {
    const [latA, lngA] = cellToLatLng(a);
    const [latB, lngB] = cellToLatLng(b);
    const spacing = Math.sqrt(3) * getHexagonEdgeLengthAvg(getResolution(a), UNITS.m);
    return Math.max(1, Math.round(greatCircleM(latA, lngA, latB, lngB) / spacing));
  }
}

function registerZone(input: { account_id: string; customer_id: string; home_cell: string; tolerance_hops: number; now: Date }): ZoneRegistered {
  const { account_id, customer_id, home_cell, tolerance_hops } = input;
  if (!isValidCell(home_cell) || getResolution(home_cell) < MIN_ZONE_RESOLUTION) {
    throw new InvalidParamError(`home_hex must be a cell of resolution ${MIN_ZONE_RESOLUTION} to 15`, 'home_hex');
  }
  if (!Number.isInteger(tolerance_hops) || tolerance_hops < 0 || tolerance_hops > MAX_TOLERANCE_HOPS) {
    throw new InvalidParamError(`tolerance_hops must be an integer from 0 to ${MAX_TOLERANCE_HOPS}`, 'tolerance_hops');
  }
  return { type: 'ZoneRegistered', data: { account_id, customer_id, home_cell, tolerance_hops, registered_at: input.now.toISOString() } };
}

/** interface.md, "Endpoints the specification implies": a ping for a customer without granted consent is refused. */
export class ConsentRequiredError extends DomainError {
  readonly code = 'CONSENT_REQUIRED';
  readonly status = 403;
  constructor(customerId: string) {
    super(`customer ${customerId} has not granted location consent; nothing was stored`);
  }
}

export type PingCheck = { ok: true; ping: Ping } | { ok: false; error: { code: string; message: string; field: string } };

/**
 * Validates one ping of a request. A batch reports each bad ping in its
 * outcome rather than refusing the whole batch, so one broken GPS fix does
 * not cost the other 999.
 */
export function checkPing(raw: Record<string, unknown>, now: Date): PingCheck {
  const bad = (field: string, message: string): PingCheck => ({ ok: false, error: { code: 'INVALID_PARAM', message, field } });
  const unknown = Object.keys(raw).find((field) => !PING_FIELDS.has(field));
  if (unknown !== undefined) return bad(unknown, `${unknown} is not a ping field (customer_id, lat, lng, accuracy_m, recorded_at, device_id, mock_location)`);
  const { lat, lng, accuracy_m, recorded_at, device_id, mock_location } = raw;
  if (!isLatitude(lat)) return bad('lat', 'lat must be a number from -90 to 90');
  if (!isLongitude(lng)) return bad('lng', 'lng must be a number from -180 to 180');
  if (accuracy_m !== undefined && accuracy_m !== null && (typeof accuracy_m !== 'number' || !Number.isFinite(accuracy_m) || accuracy_m < 0 || accuracy_m > MAX_ACCURACY_M)) {
    return bad('accuracy_m', `accuracy_m must be a number from 0 to ${MAX_ACCURACY_M}`);
  }
  if (device_id !== undefined && device_id !== null && (typeof device_id !== 'string' || !DEVICE_ID.test(device_id))) {
    return bad('device_id', callerIdMessage('device_id'));
  }
  if (mock_location !== undefined && mock_location !== null && typeof mock_location !== 'boolean') return bad('mock_location', 'mock_location must be true or false');
  let at = now;
  if (recorded_at !== undefined && recorded_at !== null) {
    if (typeof recorded_at !== 'string' || !ISO_TIME.test(recorded_at) || Number.isNaN(Date.parse(recorded_at))) {
      return bad('recorded_at', 'recorded_at must be an ISO 8601 time with a time zone, e.g. 2026-11-22T09:30:00Z');
    }
    at = new Date(recorded_at);
    if (at.getTime() > now.getTime() + MAX_CLOCK_SKEW_MS) return bad('recorded_at', 'recorded_at is in the future');
    if (at.getTime() < now.getTime() - MAX_PING_AGE_MS) return bad('recorded_at', 'recorded_at is more than 30 days old');
  }
  return {
    ok: true,
    ping: {
      lat,
      lng,
      accuracy_m: typeof accuracy_m === 'number' ? accuracy_m : null,
      recorded_at: at.toISOString(),
      device_id: typeof device_id === 'string' ? device_id : null,
      ...(typeof mock_location === 'boolean' ? { mock_location } : {}),
    },
  };
}

const PING_FIELDS: ReadonlySet<string> = new Set(['customer_id', 'lat', 'lng', 'accuracy_m', 'recorded_at', 'device_id', 'mock_location']);
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
