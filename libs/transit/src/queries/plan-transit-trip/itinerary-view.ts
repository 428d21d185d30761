import type { DayNumber } from '../../domain/clock-time.js';
import { greatCircleM } from '../../../../platform/src/geo/geodesy.js';
import type { Point } from '../../domain/geo.js';
import type { Plan, PlannedItinerary, PlannedLeg, TripRef } from '../../domain/planner.js';
import { walkBetween } from '../../domain/walking.js';
import type { LoadedFeed } from '../../public/transit-feeds.js';
import { isoTime, localTime, routeView, stopView } from '../transit-views.js';

/**
 * The answer of POST /v2/route/transit (interface.md, "Route and related
 * fields": transit response): itineraries with `walk_only`, legs (walking and
 * transit, transit legs with `stops` as TransitStop objects and `geometry` as
 * [lng, lat] pairs along the route's shape), `no_transit`, `note`, and
 * `first_trip`/`last_trip` when the miss looks like a clock problem.
 */
export function planView(feed: LoadedFeed, plan: Plan, from: Point, to: Point) {
  const day = plan.serviceDay.requested;
  const itineraries = plan.itineraries.map((itinerary) => itineraryView(feed, day, itinerary, from, to));
  const noTransit = plan.itineraries.every((itinerary) => itinerary.walkOnly);
  const notes = [...plan.notes];
  if (noTransit && itineraries.length > 0) notes.push('Walking only: no vehicle is used.');
  return {
    itineraries,
    no_transit: noTransit,
    note: notes.length > 0 ? notes.join(' ') : null,
    ...(plan.clockMiss ? { first_trip: tripRefView(feed, day, plan.clockMiss.first), last_trip: tripRefView(feed, day, plan.clockMiss.last) } : {}),
    service_date: new Date(plan.serviceDay.used * 86_400_000).toISOString().slice(0, 10),
    timetable_out_of_date: plan.serviceDay.outOfRange !== null,
  };
}

function itineraryView(feed: LoadedFeed, day: DayNumber, itinerary: PlannedItinerary, from: Point, to: Point) {
  // A walk of nothing (the point is the stop) is no leg for people.
  const legs = itinerary.legs.map((leg) => legView(feed, day, leg, from, to)).filter((leg) => leg.mode !== 'walk' || leg.distance_m > 0 || leg.duration_s > 0);
  const walkDistance = legs.reduce((sum, leg) => sum + (leg.mode === 'walk' ? leg.distance_m : 0), 0);
  return {
    walk_only: itinerary.walkOnly,
    departure_time: isoTime(feed, day, itinerary.departure),
    arrival_time: isoTime(feed, day, itinerary.arrival),
    duration_s: Math.round(itinerary.arrival - itinerary.departure),
    vehicles: itinerary.rides,
    transfers: Math.max(0, itinerary.rides - 1),
    walk_distance_m: Math.round(walkDistance),
    legs,
  };
}

type LegView = ReturnType<typeof walkView> | ReturnType<typeof rideView>;

function legView(feed: LoadedFeed, day: DayNumber, leg: PlannedLeg, from: Point, to: Point): LegView {
  const network = feed.network;
  const stopPlace = (index: number) => ({ lat: network.stops[index].lat, lng: network.stops[index].lng, name: network.stops[index].name, stop: stopView(network, index) });
  const origin = { ...from, name: null, stop: null };
  const destination = { ...to, name: null, stop: null };
  switch (leg.kind) {
    case 'walk':
      return walkView(feed, day, leg.start, leg.end, leg.distanceM, origin, destination);
    case 'access':
      return walkView(feed, day, leg.start, leg.end, leg.distanceM, origin, stopPlace(leg.stop));
    case 'egress':
      return walkView(feed, day, leg.start, leg.end, leg.distanceM, stopPlace(leg.stop), destination);
    case 'transfer': {
      const a = network.stops[leg.from];
      const b = network.stops[leg.to];
      return walkView(feed, day, leg.start, leg.end, walkBetween(a.lat, a.lng, b.lat, b.lng).distanceM, stopPlace(leg.from), stopPlace(leg.to));
    }
    case 'ride':
      return rideView(feed, day, leg);
    default: {
      const _exhaustive: never = leg;
      return _exhaustive;
    }
  }
}

interface Place {
  lat: number;
  lng: number;
  name: string | null;
  stop: ReturnType<typeof stopView> | null;
}

function walkView(feed: LoadedFeed, day: DayNumber, start: number, end: number, distance: number, from: Place, to: Place) {
  return {
    mode: 'walk' as const,
    from,
    to,
    departure_time: isoTime(feed, day, start),
    arrival_time: isoTime(feed, day, end),
    duration_s: Math.round(end - start),
    distance_m: Math.round(distance),
    geometry: [
      [from.lng, from.lat],
      [to.lng, to.lat],
    ],
  };
}

function rideView(feed: LoadedFeed, day: DayNumber, leg: Extract<PlannedLeg, { kind: 'ride' }>) {
  const network = feed.network;
  const trip = network.trips[leg.trip];
  const pattern = network.patterns[trip.pattern];
  const frequency = leg.frequency >= 0 ? trip.frequencies[leg.frequency] : null;
  const headwayBased = frequency !== null && frequency.exact === 0;
  const stops = [];
  for (let position = leg.boardPosition; position <= leg.alightPosition; position++) {
    stops.push({
      ...stopView(network, pattern.stops[position]),
      arrival_time: position === leg.boardPosition ? null : isoTime(feed, day, trip.arrivals[position] + leg.shift),
      departure_time: position === leg.alightPosition ? null : isoTime(feed, day, trip.departures[position] + leg.shift),
    });
  }
  const geometry = rideGeometry(feed, leg);
  return {
    mode: 'transit' as const,
    route: routeView(network.routes[trip.route]),
    trip_id: trip.id,
    headsign: trip.headsign ?? pattern.destination,
    departure_time: isoTime(feed, day, leg.start),
    arrival_time: isoTime(feed, day, leg.end),
    duration_s: Math.round(leg.end - leg.start),
    distance_m: Math.round(lineLength(geometry)),
    /** Board at the first, alight at the last; the ones between are passed. */
    stops,
    frequency_based: frequency !== null,
    headway_s: frequency?.headway ?? null,
    /** Headway-based (exact_times=0): the wait at the boarding stop assumed in the times, half the headway. */
    expected_wait_s: headwayBased ? Math.round(leg.wait) : null,
    times_estimated: headwayBased,
    geometry,
  };
}

/** The shape between the boarding and alighting stops, or the stops themselves when the trip has no shape. */
function rideGeometry(feed: LoadedFeed, leg: Extract<PlannedLeg, { kind: 'ride' }>): number[][] {
  const network = feed.network;
  const trip = network.trips[leg.trip];
  const pattern = network.patterns[trip.pattern];
  const board = network.stops[pattern.stops[leg.boardPosition]];
  const alight = network.stops[pattern.stops[leg.alightPosition]];
  if (trip.shape >= 0 && trip.shapeAt) {
    const points = network.shapes[trip.shape];
    const from = trip.shapeAt[leg.boardPosition];
    const to = trip.shapeAt[leg.alightPosition];
    if (to > from) {
      const line: number[][] = [[board.lng, board.lat]];
      for (let i = from; i <= to; i++) line.push([points[2 * i], points[2 * i + 1]]);
      line.push([alight.lng, alight.lat]);
      return line;
    }
  }
  const line: number[][] = [];
  for (let position = leg.boardPosition; position <= leg.alightPosition; position++) {
    const stop = network.stops[pattern.stops[position]];
    line.push([stop.lng, stop.lat]);
  }
  return line;
}

function tripRefView(feed: LoadedFeed, day: DayNumber, ref: TripRef) {
  const network = feed.network;
  const trip = network.trips[ref.trip];
  return {
    departure_time: isoTime(feed, day, ref.time),
    local_time: localTime(ref.time),
    route: routeView(network.routes[trip.route]),
    headsign: trip.headsign ?? network.patterns[trip.pattern].destination,
    stop: stopView(network, ref.stop),
  };
}

function lineLength(line: number[][]): number {
  let total = 0;
  for (let i = 1; i < line.length; i++) total += greatCircleM(line[i - 1][1], line[i - 1][0], line[i][1], line[i][0]);
  return total;
}
