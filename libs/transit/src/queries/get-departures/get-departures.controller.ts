import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CLOCK, Public, type Clock } from '../../../../platform/src/index.js';
import { departureBoard, DEPARTURES_PER_LINE, MAX_BOARD_LINES, type BoardLine } from '../../domain/departures.js';
import type { DayNumber } from '../../domain/clock-time.js';
import { TransitFeeds, type LoadedFeed } from '../../transit-feeds.js';
import { checkDateTime, datasetView, isoTime, localTime, requestedMoment, routeView, stopView } from '../transit-views.js';
import { DEFAULT_DEPARTURES_RADIUS_M, GetDeparturesRequest, MAX_DEPARTURES_RADIUS_M } from './get-departures.request.js';

/** interface.md, "Routing, transit, weather, language": GET /v2/transit/departures (public). */
@ApiTags('transit')
@Controller('v2/transit/departures')
export class GetDeparturesController {
  constructor(
    @Inject(TransitFeeds) private readonly feeds: TransitFeeds,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get()
  @Public()
  @ApiOperation({
    summary: 'Lines to board near a point, with their destinations and next departures',
    description:
      `The lines that can be boarded at the stops within \`radius_m\` (default ${DEFAULT_DEPARTURES_RADIUS_M}, at most ${MAX_DEPARTURES_RADIUS_M}) of the point: ` +
      'one entry per route and destination (the trip headsign, else its last stop), at the nearest stop it can be boarded at. ' +
      'A line that only ends at these stops is left out (one cannot board it there). ' +
      `Timetabled services give their next ${DEPARTURES_PER_LINE} departures; headway-based ones (trotros: frequencies.txt, exact_times=0) give the headway and its window instead. ` +
      `At most ${MAX_BOARD_LINES} lines, nearest first. Times are ISO 8601 UTC with the feed's local clock beside them.`,
  })
  @ApiResponse({
    status: 200,
    description:
      '`{lat, lng, radius_m, time, service_date, stops: [TransitStop + distance_m], lines: [{route, destination, stop: TransitStop + distance_m, last_stop, ' +
      'next_departures: [{departure_time, local_time, trip_id}], frequency_based, no_more_today, headway: {headway_s, running, from_time, until_time, from_local, until_local} | null}], note, dataset, attribution}`',
  })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming the field (`lat`, `lng`, `radius_m`, `date`, `time`)' })
  @ApiResponse({ status: 503, description: 'DATASET_NOT_LOADED: no transit feed has been imported yet' })
  departures(@Query() request: GetDeparturesRequest) {
    checkDateTime(request.date, request.time);
    const point = { lat: request.lat, lng: request.lng };
    const feed = this.feeds.feedFor(point);
    const network = feed.network;
    const radiusM = request.radius_m ?? DEFAULT_DEPARTURES_RADIUS_M;
    const { day, seconds } = requestedMoment(feed, this.clock.now(), request.date, request.time);
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
}

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
