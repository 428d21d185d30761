import type { DayNumber } from './clock-time.js';
import { greatCircleM } from '../../../platform/src/geo/geodesy.js';
import type { Point } from './geo.js';
import type { ServiceDay, TransitNetwork } from './network.js';
import { raptor, type Journey, type RaptorLeg, type StopAccess } from './raptor.js';
import { ACCESS_RADIUS_M, MAX_DIRECT_WALK_M, walkOf } from './walking.js';

/**
 * A trip plan for POST /v2/route/transit (docs/adr/0019): RAPTOR's Pareto
 * front (arrival × vehicles) plus walking alone when the distance allows,
 * at most three itineraries, each saying whether it uses a vehicle at all.
 */

export const MAX_ITINERARIES = 3;
/** arrive_by looks for departures up to this long before the wanted arrival. */
const ARRIVE_BY_WINDOW_S = 4 * 3600;
const ARRIVE_BY_PRECISION_S = 60;

export interface PlanRequest {
  from: Point;
  to: Point;
  /** The requested calendar day (local to the feed) and the seconds after its midnight. */
  day: DayNumber;
  seconds: number;
  arriveBy: boolean;
  /** false when `modes` leaves transit out: walking only. */
  transit: boolean;
}

export type PlannedLeg = RaptorLeg | { kind: 'walk'; start: number; end: number; distanceM: number };

export interface PlannedItinerary {
  walkOnly: boolean;
  rides: number;
  departure: number;
  arrival: number;
  legs: PlannedLeg[];
}

export interface TripRef {
  /** Seconds on the service day's clock. */
  time: number;
  trip: number;
  stop: number;
}

export interface Plan {
  serviceDay: ServiceDay;
  itineraries: PlannedItinerary[];
  /** Sentences for `note`, most important first. */
  notes: string[];
  /** Set when no vehicle could be used and the request's time lies before the first or after the last departure near the origin. */
  clockMiss: { first: TripRef; last: TripRef; side: 'before_first' | 'after_last' } | null;
  accessStops: number;
  egressStops: number;
}

export function planTrip(network: TransitNetwork, request: PlanRequest): Plan {
  const serviceDay = network.serviceDay(request.day);
  const notes: string[] = [];
  const outOfDate = network.outOfDateNote(serviceDay);
  if (outOfDate) notes.push(outOfDate);

  const straight = greatCircleM(request.from.lat, request.from.lng, request.to.lat, request.to.lng);
  const walk = straight <= MAX_DIRECT_WALK_M ? walkOf(straight) : null;
  const walkItinerary = (departure: number): PlannedItinerary | null =>
    walk ? { walkOnly: true, rides: 0, departure, arrival: departure + walk.seconds, legs: [{ kind: 'walk', start: departure, end: departure + walk.seconds, distanceM: walk.distanceM }] } : null;

  const access = request.transit ? stopsNear(network, request.from) : [];
  const egress = request.transit ? stopsNear(network, request.to) : [];
  let journeys: Journey[] = [];
  let clockMiss: Plan['clockMiss'] = null;
  if (!request.transit) {
    notes.push('Transit is not among the requested modes: walking only.');
  } else if (access.length === 0 || egress.length === 0) {
    const where = access.length === 0 && egress.length === 0 ? 'the origin or the destination' : access.length === 0 ? 'the origin' : 'the destination';
    notes.push(`No transit stop within ${ACCESS_RADIUS_M} m of ${where}.`);
  } else {
    journeys = request.arriveBy ? arriveBy(network, serviceDay.used, request.seconds, access, egress) : raptor(network, { day: serviceDay.used, departure: request.seconds, access, egress });
    if (journeys.length === 0) {
      clockMiss = clockMissOf(network, serviceDay.used, request.seconds, access);
      notes.push(
        clockMiss?.side === 'before_first'
          ? 'No vehicle runs near the origin this early: see first_trip.'
          : clockMiss?.side === 'after_last'
            ? 'No vehicle runs near the origin this late: see last_trip.'
            : 'No vehicle connects these places at this time.',
      );
    }
  }

  const walking = request.arriveBy ? (walk ? walkItinerary(request.seconds - walk.seconds) : null) : walkItinerary(request.seconds);
  const candidates: PlannedItinerary[] = journeys.map((journey) => withWalks(network, journey));
  if (walking) candidates.push(walking);
  const itineraries = select(candidates, request.arriveBy);
  if (itineraries.length === 0 && !walk) notes.push(`Walking all the way (over ${MAX_DIRECT_WALK_M / 1000} km as the crow flies) is not offered.`);
  if (itineraries.length > 0 && itineraries.every((itinerary) => itinerary.walkOnly) && request.transit && journeys.length > 0) {
    notes.push('Walking is faster than any vehicle here.');
  }
  return { serviceDay, itineraries, notes, clockMiss, accessStops: access.length, egressStops: egress.length };
}

/** Boardable stops (served by some pattern) within walking reach of a point, with the walk. */
export function stopsNear(network: TransitNetwork, point: Point, radiusM = ACCESS_RADIUS_M): StopAccess[] {
  const found: StopAccess[] = [];
  for (const near of network.grid.within(point.lat, point.lng, radiusM)) {
    if (network.stopPatternStart[near.index + 1] === network.stopPatternStart[near.index]) continue;
    const walk = walkOf(near.distanceM);
    found.push({ stop: near.index, seconds: walk.seconds, distanceM: walk.distanceM });
  }
  return found;
}

/**
 * Latest departure that still arrives by the wanted time: the earliest
 * arrival never decreases with a later departure (timetabled trips keep
 * their order within a pattern, the headway model waits h/2 from any
 * moment), so a bisection over departures finds it; the journeys of that
 * departure that arrive in time are the answer.
 */
function arriveBy(network: TransitNetwork, day: DayNumber, arrival: number, access: StopAccess[], egress: StopAccess[]): Journey[] {
  const search = (departure: number) => raptor(network, { day, departure, access, egress });
  const earliestArrival = (journeys: Journey[]) => (journeys.length === 0 ? Infinity : journeys[journeys.length - 1].arrival);
  let low = Math.max(0, arrival - ARRIVE_BY_WINDOW_S);
  let found = search(low);
  if (earliestArrival(found) > arrival) return [];
  let high = arrival;
  while (high - low > ARRIVE_BY_PRECISION_S) {
    const middle = Math.floor((low + high) / 2);
    const journeys = search(middle);
    if (earliestArrival(journeys) <= arrival) {
      low = middle;
      found = journeys;
    } else high = middle;
  }
  return found.filter((journey) => journey.arrival <= arrival);
}

/** A journey's legs with its walks made plain: to the first stop, between stops, from the last. */
function withWalks(network: TransitNetwork, journey: Journey): PlannedItinerary {
  const legs: PlannedLeg[] = [...journey.legs];
  const first = legs.find((leg) => leg.kind === 'ride');
  const access = legs[0];
  // A timetabled first vehicle: leave just in time for it rather than wait at the stop.
  // A vehicle with a known departure (timetabled, or exact_times=1): leave just in time for it rather than wait at the stop.
  // A headway-based one: leave now, the expected wait is part of the ride.
  if (access.kind === 'access' && first?.kind === 'ride' && (first.frequency === -1 || network.trips[first.trip].frequencies[first.frequency].exact === 1)) {
    const walkSeconds = access.end - access.start;
    legs[0] = { ...access, start: first.start - walkSeconds, end: first.start };
  }
  return { walkOnly: false, rides: journey.rides, departure: legs[0].start, arrival: journey.arrival, legs };
}

/**
 * Pareto front of arrival × vehicles (walking alone counts as none), at most
 * MAX_ITINERARIES: always the earliest arrival (for arrive_by: the latest
 * departure) and the fewest vehicles, then the fastest of the rest.
 */
function select(candidates: PlannedItinerary[], arriveBy: boolean): PlannedItinerary[] {
  const better = (a: PlannedItinerary, b: PlannedItinerary) => (arriveBy ? a.departure > b.departure : a.arrival < b.arrival);
  const front = candidates.filter((candidate) => !candidates.some((other) => other !== candidate && other.rides <= candidate.rides && (better(other, candidate) || (other.rides < candidate.rides && !better(candidate, other)))));
  // Equal on both criteria: keep one of each.
  const distinct = front.filter((candidate, i) => front.findIndex((other) => other.rides === candidate.rides) === i);
  distinct.sort((a, b) => a.rides - b.rides);
  if (distinct.length <= MAX_ITINERARIES) return orderForPeople(distinct, arriveBy);
  const fastest = distinct[distinct.length - 1];
  const fewest = distinct.find((itinerary) => !itinerary.walkOnly) ?? distinct[0];
  const walking = distinct.find((itinerary) => itinerary.walkOnly);
  const chosen = new Set<PlannedItinerary>([fastest, fewest]);
  if (walking) chosen.add(walking);
  for (let i = distinct.length - 2; chosen.size < MAX_ITINERARIES && i >= 0; i--) chosen.add(distinct[i]);
  return orderForPeople([...chosen], arriveBy);
}

/** Vehicles before walking alone, then earliest arrival (latest departure for arrive_by). */
function orderForPeople(itineraries: PlannedItinerary[], arriveBy: boolean): PlannedItinerary[] {
  return itineraries.sort((a, b) => Number(a.walkOnly) - Number(b.walkOnly) || (arriveBy ? b.departure - a.departure : a.arrival - b.arrival) || a.rides - b.rides);
}

/**
 * The first and last departure of the day from the stops near the origin
 * (boardable: not a pattern's last stop, pickup allowed). A request before
 * the first or after the last is a miss of the clock, not of the network.
 */
export function clockMissOf(network: TransitNetwork, day: DayNumber, seconds: number, access: StopAccess[]): Plan['clockMiss'] {
  const span = serviceSpan(network, day, access.map((entry) => entry.stop));
  if (!span) return null;
  if (seconds < span.first.time) return { ...span, side: 'before_first' };
  if (seconds > span.last.time) return { ...span, side: 'after_last' };
  return null;
}

export function serviceSpan(network: TransitNetwork, day: DayNumber, stops: number[]): { first: TripRef; last: TripRef } | null {
  const active = network.activeOn(day);
  let first: TripRef | null = null;
  let last: TripRef | null = null;
  const consider = (time: number, trip: number, stop: number) => {
    if (!first || time < first.time) first = { time, trip, stop };
    if (!last || time > last.time) last = { time, trip, stop };
  };
  for (const stop of stops) {
    for (let at = network.stopPatternStart[stop]; at < network.stopPatternStart[stop + 1]; at++) {
      const pattern = network.patterns[network.stopPatternPattern[at]];
      const position = network.stopPatternPosition[at];
      if (position === pattern.stops.length - 1) continue;
      for (const tripIndex of [...pattern.trips, ...pattern.frequencyTrips]) {
        const trip = network.trips[tripIndex];
        if (!active[trip.service] || trip.noPickup[position]) continue;
        if (trip.frequencies.length === 0) {
          consider(trip.departures[position], tripIndex, stop);
          continue;
        }
        const fromFirst = trip.departures[position] - trip.departures[0];
        for (const frequency of trip.frequencies) {
          consider(frequency.start + fromFirst, tripIndex, stop);
          // The last departure of the window: exact ones on the grid, headway ones at its end.
          const lastStart = frequency.exact === 1 ? frequency.start + Math.floor((frequency.end - 1 - frequency.start) / frequency.headway) * frequency.headway : frequency.end;
          consider(lastStart + fromFirst, tripIndex, stop);
        }
      }
    }
  }
  return first && last ? { first, last } : null;
}
