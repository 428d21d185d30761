import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '../../../../platform/src/index.js';
import type { DayNumber } from '../../domain/clock-time.js';
import { departureBoard, type BoardLine } from '../../domain/departures.js';
import { TransitFeeds, type LoadedFeed } from '../../public/transit-feeds.js';
import { checkDateTime, datasetView, isoTime, localTime, requestedMoment, routeView, stopView } from '../transit-views.js';
import { DEFAULT_DEPARTURES_RADIUS_M } from './get-departures.request.js';

/** GET /v2/transit/departures?lat&lng[&radius_m&date&time]. */
export interface DeparturesRequest {
  lat: number;
  lng: number;
  radius_m?: number;
  date?: string;
  time?: string;
}

export class GetDeparturesQuery extends Query<DepartureBoard> {
  constructor(readonly request: DeparturesRequest) {
    super();
  }
}

/** The lines boardable near a point, one per route and destination, with their next departures or headway. */
@QueryHandler(GetDeparturesQuery)
export class GetDeparturesHandler implements IQueryHandler<GetDeparturesQuery> {
  constructor(
    @Inject(TransitFeeds) private readonly feeds: TransitFeeds,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ request }: GetDeparturesQuery): Promise<DepartureBoard> {
    return departures(this.feeds, this.clock, request);
  }
}

function departures(feeds: TransitFeeds, clock: Clock, request: DeparturesRequest) {
  checkDateTime(request.date, request.time);
  const point = { lat: request.lat, lng: request.lng };
  const feed = feeds.feedFor(point);
  const network = feed.network;
  const radiusM = request.radius_m ?? DEFAULT_DEPARTURES_RADIUS_M;
  const { day, seconds } = requestedMoment(feed, clock.now(), request.date, request.time);
  const serviceDay = network.serviceDay(day);
  const board = departureBoard(network, point.lat, point.lng, radiusM, serviceDay.used, seconds);
  const notes: string[] = [];
  const outOfDate = network.outOfDateNote(serviceDay);
  if (outOfDate) notes.push(outOfDate);
  if (board.stops.length === 0) notes.push(`No transit stop within ${radiusM} m.`);
  else if (board.lines.length === 0) notes.push('No line can be boarded at these stops (lines ending here are not listed).');
  return {
    lat: point.lat,
    lng: point.lng,
    radius_m: radiusM,
    time: isoTime(feed, day, seconds),
    service_date: new Date(serviceDay.used * 86_400_000).toISOString().slice(0, 10),
    timetable_out_of_date: serviceDay.outOfRange !== null,
    stops: board.stops.map((hit) => ({ ...stopView(network, hit.stop), distance_m: Math.round(hit.distanceM) })),
    lines: board.lines.map((line) => lineView(feed, day, seconds, line)),
    note: notes.length > 0 ? notes.join(' ') : null,
    dataset: datasetView(feed),
    attribution: feed.attribution,
  };
}

export type DepartureBoard = ReturnType<typeof departures>;

function lineView(feed: LoadedFeed, day: DayNumber, seconds: number, line: BoardLine) {
  const network = feed.network;
  const headway = line.headways.find((window) => window.end > seconds) ?? null;
  return {
    route: routeView(network.routes[line.route]),
    destination: line.destination,
    stop: { ...stopView(network, line.stop), distance_m: Math.round(line.distanceM) },
    last_stop: stopView(network, line.lastStop),
    next_departures: line.departures.map((departure) => ({ departure_time: isoTime(feed, day, departure.time), local_time: localTime(departure.time), trip_id: network.trips[departure.trip].id })),
    frequency_based: line.headways.length > 0,
    /** Nothing more boards here today (no departure left, no headway window running or to come). */
    no_more_today: line.departures.length === 0 && headway === null,
    headway: headway
      ? {
          headway_s: headway.headway,
          running: headway.running,
          from_time: isoTime(feed, day, headway.start),
          until_time: isoTime(feed, day, headway.end),
          from_local: localTime(headway.start),
          until_local: localTime(headway.end),
        }
      : null,
  };
}
