import path from 'node:path';
import { DATASET_NAME, type DatasetImportProgress, type DatasetStore, type DatasetVersion, type DatasetWriter } from '../../../platform/src/index.js';
import { GtfsArchive, GtfsArchiveError, type CsvRow } from '../../../reference-data/src/index.js';
import { formatGtfsTime, parseGtfsDate, parseGtfsTime } from '../domain/clock-time.js';
import type { FeedInfoRecord, FrequencyRecord, RouteRecord, ServiceRecord, StopRecord, TripRecord } from '../domain/feed-records.js';
import { greatCircleM, isCoordinate } from '../../../platform/src/geo/geodesy.js';
import { TransitNetwork } from '../domain/network.js';
import { GtfsImportError, GtfsImportReport } from './import-report.js';

/**
 * `npm run ops -- import:gtfs FILE.zip [--dataset NAME]` (docs/adr/0019): a
 * GTFS feed becomes a new version of the reference dataset `transit/NAME`
 * (default `transit/gtfs`), switched in atomically by the reference store
 * (docs/adr/0011). The feed is checked as it is read; what is wrong is
 * reported (counts and examples, also kept as `import-report.json` beside the
 * records) and left out, so the dataset holds only what routing can trust. A
 * feed missing a required table, or left with no usable trip, is refused and
 * the live version stays.
 */

export interface GtfsImportOptions {
  /** Dataset name under `transit/` (default `gtfs`). */
  dataset?: string;
  onProgress?: (progress: DatasetImportProgress) => void;
  /** Tests: runs after the new version is durable and before it goes live. */
  beforeSwitch?: () => Promise<void>;
}

export interface GtfsImportResult {
  version: DatasetVersion;
  stats: Record<string, number>;
  report: GtfsImportReport;
}

export const DEFAULT_TRANSIT_DATASET = 'gtfs';
export const TRANSIT_DATASET_GROUP = 'transit';
const REQUIRED = ['stops.txt', 'routes.txt', 'trips.txt', 'stop_times.txt'] as const;
const REPORT_FILE = 'import-report.json';

interface StopTimeRow {
  sequence: number;
  stop: string;
  arrival: number | null;
  departure: number | null;
  noPickup: number;
  noDropOff: number;
  distance: number | null;
  line: number;
}

interface PendingTrip {
  record: Omit<TripRecord, 'stops' | 'arrivals' | 'departures' | 'no_pickup' | 'no_drop_off' | 'shape_at' | 'frequencies'>;
  line: number;
  rows: StopTimeRow[];
  broken: boolean;
  frequencies: FrequencyRecord[];
}

export function transitDatasetName(name = DEFAULT_TRANSIT_DATASET): string {
  const dataset = `${TRANSIT_DATASET_GROUP}/${name}`;
  if (!DATASET_NAME.test(dataset)) throw new GtfsImportError(`invalid dataset name "${name}": lower-case letters, digits, _ and -`, new GtfsImportReport());
  return dataset;
}

export async function importGtfs(store: DatasetStore, file: string, options: GtfsImportOptions = {}): Promise<GtfsImportResult> {
  const dataset = transitDatasetName(options.dataset);
  const report = new GtfsImportReport();
  let archive: GtfsArchive;
  try {
    archive = await GtfsArchive.open(file);
  } catch (error) {
    if (error instanceof GtfsArchiveError) {
      report.add('not_a_zip', 'fatal', 'the file is not a readable zip archive', error.message);
      throw new GtfsImportError(error.message, report);
    }
    throw error;
  }
  try {
    for (const name of REQUIRED) {
      if (!archive.has(name)) report.add('missing_required_file', 'fatal', 'a required table is missing from the feed', name);
    }
    if (!archive.has('calendar.txt') && !archive.has('calendar_dates.txt')) {
      report.add('missing_required_file', 'fatal', 'a required table is missing from the feed', 'calendar.txt or calendar_dates.txt (one of them)');
    }
    if (report.fatal) throw new GtfsImportError(`${path.basename(file)} is not a usable GTFS feed: ${report.summary().join('; ')}`, report);
    const reader = new FeedReader(archive, report, options.onProgress);
    const feed = await reader.read();
    const writer = await store.begin(dataset);
    try {
      const stats = await writeDataset(writer, feed, report);
      await writer.attach(REPORT_FILE, `${JSON.stringify(report, null, 2)}\n`);
      const version = await writer.commit({ sources: [path.basename(file)], attribution: feed.attribution, stats }, options.beforeSwitch);
      return { version, stats, report };
    } catch (error) {
      await writer.abort();
      throw error;
    }
  } catch (error) {
    if (error instanceof GtfsArchiveError) {
      report.add('unreadable_table', 'fatal', 'a table could not be read as CSV', error.message);
      throw new GtfsImportError(`${path.basename(file)}: ${error.message}`, report);
    }
    throw error;
  } finally {
    archive.close();
  }
}

interface ReadFeed {
  info: FeedInfoRecord;
  stops: Map<string, StopRecord>;
  routes: Map<string, RouteRecord>;
  services: Map<string, ServiceRecord>;
  shapes: Map<string, { points: number[]; distances: Array<number | null> }>;
  trips: TripRecord[];
  attribution: string[];
}

/** Reads and checks the tables in dependency order; everything it keeps is consistent with everything else it keeps. */
class FeedReader {
  constructor(
    private readonly archive: GtfsArchive,
    private readonly report: GtfsImportReport,
    private readonly onProgress?: (progress: DatasetImportProgress) => void,
  ) {}

  async read(): Promise<ReadFeed> {
    const { timezone, agencies } = await this.agencies();
    const info = await this.feedInfo(timezone, agencies);
    const stops = await this.stops();
    const routes = await this.routes();
    const services = await this.services();
    const shapes = await this.shapes();
    const pending = await this.trips(routes, services, shapes);
    await this.stopTimes(pending, stops);
    await this.frequencies(pending);
    const trips = this.finishTrips(pending, stops, shapes);
    const serviceDays = [...services.values()].flatMap((service) => [service.start, service.end, ...service.added].filter((day): day is string => day !== null));
    info.start_date ??= serviceDays.length > 0 ? serviceDays.reduce((a, b) => (a < b ? a : b)) : null;
    info.end_date ??= serviceDays.length > 0 ? serviceDays.reduce((a, b) => (a > b ? a : b)) : null;
    const attribution = agencies.length > 0 ? [`Transit data: ${agencies.map((agency) => agency.name).join(', ')}${info.publisher ? ` (published by ${info.publisher})` : ''}`] : [];
    return { info, stops, routes, services, shapes, trips, attribution };
  }

  private async *table(name: string): AsyncGenerator<CsvRow> {
    const total = this.archive.size(name);
    let rows = 0;
    const progress = (done: number) => this.onProgress?.({ phase: name, done: Math.min(done, total), total, records: rows });
    progress(0);
    for await (const row of this.archive.rows(name, progress)) {
      rows++;
      yield row;
    }
    this.report.files[name] = rows;
    progress(total);
  }

  private async agencies(): Promise<{ timezone: string; agencies: FeedInfoRecord['agencies'] }> {
    const agencies: FeedInfoRecord['agencies'] = [];
    let timezone: string | null = null;
    if (!this.archive.has('agency.txt')) {
      this.report.add('missing_agency', 'warning', 'agency.txt is missing: times are read as UTC and no operator is credited', 'agency.txt');
    }
    for await (const row of this.table('agency.txt')) {
      const zone = row.get('agency_timezone');
      agencies.push({ id: row.get('agency_id') || null, name: row.get('agency_name') || row.get('agency_id') || 'unnamed agency', url: row.get('agency_url') || null });
      if (timezone === null && zone) {
        if (isTimeZone(zone)) timezone = zone;
        else this.report.add('bad_timezone', 'warning', 'agency_timezone is not an IANA time zone: times are read as UTC', `agency.txt line ${row.line}: "${zone}"`);
      }
    }
    return { timezone: timezone ?? 'UTC', agencies };
  }

  private async feedInfo(timezone: string, agencies: FeedInfoRecord['agencies']): Promise<FeedInfoRecord> {
    const info: FeedInfoRecord = { t: 'feed', timezone, agencies, start_date: null, end_date: null, publisher: null, version: null };
    for await (const row of this.table('feed_info.txt')) {
      info.publisher = row.get('feed_publisher_name') || null;
      info.version = row.get('feed_version') || null;
      break;
    }
    return info;
  }

  private async stops(): Promise<Map<string, StopRecord>> {
    const stops = new Map<string, StopRecord>();
    for await (const row of this.table('stops.txt')) {
      const where = `stops.txt line ${row.line}`;
      const id = row.get('stop_id');
      if (!id) {
        this.report.add('missing_id', 'skipped', 'a row without its id was skipped', `${where}: no stop_id`);
        continue;
      }
      if (stops.has(id)) {
        this.report.add('duplicate_id', 'skipped', 'a second row with an id already read was skipped', `${where}: stop_id "${id}"`);
        continue;
      }
      const type = row.get('location_type') || '0';
      if (type !== '0' && type !== '1') {
        // Entrances, generic nodes and boarding areas: routing needs none of them (it walks in straight lines).
        this.report.add('stop_not_used', 'warning', 'entrances, generic nodes and boarding areas (location_type 2-4) are not used', `${where}: stop "${id}", location_type ${type}`);
        continue;
      }
      const lat = Number(row.get('stop_lat'));
      const lng = Number(row.get('stop_lon'));
      if (row.get('stop_lat') === '' || row.get('stop_lon') === '' || !isCoordinate(lat, lng) || (lat === 0 && lng === 0)) {
        this.report.add('bad_coordinates', 'skipped', 'a stop without a valid position was skipped (and the stop times that use it)', `${where}: stop "${id}" at "${row.get('stop_lat')}", "${row.get('stop_lon')}"`);
        continue;
      }
      stops.set(id, {
        t: 'stop',
        id,
        name: row.get('stop_name') || row.get('stop_code') || id,
        lat: round6(lat),
        lng: round6(lng),
        location_type: type === '1' ? 1 : 0,
        parent: row.get('parent_station') || null,
        code: row.get('stop_code') || null,
      });
    }
    for (const stop of stops.values()) {
      if (stop.parent === null) continue;
      const parent = stops.get(stop.parent);
      if (!parent || parent.location_type !== 1) {
        this.report.add('dangling_parent_station', 'warning', 'parent_station names no station of stops.txt: the stop is kept without a parent', `stop "${stop.id}" → "${stop.parent}"`);
        stop.parent = null;
      }
    }
    return stops;
  }

  private async routes(): Promise<Map<string, RouteRecord>> {
    const routes = new Map<string, RouteRecord>();
    for await (const row of this.table('routes.txt')) {
      const where = `routes.txt line ${row.line}`;
      const id = row.get('route_id');
      if (!id) {
        this.report.add('missing_id', 'skipped', 'a row without its id was skipped', `${where}: no route_id`);
        continue;
      }
      if (routes.has(id)) {
        this.report.add('duplicate_id', 'skipped', 'a second row with an id already read was skipped', `${where}: route_id "${id}"`);
        continue;
      }
      const typeText = row.get('route_type');
      const type = Number(typeText);
      if (typeText === '' || !Number.isInteger(type) || type < 0) {
        this.report.add('bad_route_type', 'skipped', 'a route without a valid route_type was skipped (and its trips)', `${where}: route "${id}", route_type "${typeText}"`);
        continue;
      }
      routes.set(id, {
        t: 'route',
        id,
        short_name: row.get('route_short_name') || null,
        long_name: row.get('route_long_name') || null,
        type,
        color: colour(row.get('route_color')),
        text_color: colour(row.get('route_text_color')),
        agency: row.get('agency_id') || null,
      });
    }
    return routes;
  }

  private async services(): Promise<Map<string, ServiceRecord>> {
    const services = new Map<string, ServiceRecord>();
    for await (const row of this.table('calendar.txt')) {
      const where = `calendar.txt line ${row.line}`;
      const id = row.get('service_id');
      if (!id) {
        this.report.add('missing_id', 'skipped', 'a row without its id was skipped', `${where}: no service_id`);
        continue;
      }
      const start = row.get('start_date');
      const end = row.get('end_date');
      const days = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => row.get(day));
      const startDay = parseGtfsDate(start);
      const endDay = parseGtfsDate(end);
      if (startDay === null || endDay === null || endDay < startDay || days.some((day) => day !== '0' && day !== '1')) {
        this.report.add('bad_calendar', 'skipped', 'a calendar row with malformed dates or weekdays was skipped', `${where}: service "${id}" ${start}..${end} days ${days.join('')}`);
        continue;
      }
      if (services.has(id)) {
        this.report.add('duplicate_id', 'skipped', 'a second row with an id already read was skipped', `${where}: service_id "${id}"`);
        continue;
      }
      services.set(id, { t: 'service', id, days: days.map(Number) as ServiceRecord['days'], start, end, added: [], removed: [] });
    }
    for await (const row of this.table('calendar_dates.txt')) {
      const where = `calendar_dates.txt line ${row.line}`;
      const id = row.get('service_id');
      const date = row.get('date');
      const type = row.get('exception_type');
      if (!id || parseGtfsDate(date) === null || (type !== '1' && type !== '2')) {
        this.report.add('bad_calendar_date', 'skipped', 'a calendar_dates row with a malformed date or exception_type was skipped', `${where}: service "${id}" date "${date}" type "${type}"`);
        continue;
      }
      let service = services.get(id);
      if (!service) {
        service = { t: 'service', id, days: null, start: null, end: null, added: [], removed: [] };
        services.set(id, service);
      }
      (type === '1' ? service.added : service.removed).push(date);
    }
    return services;
  }

  private async shapes(): Promise<ReadFeed['shapes']> {
    const raw = new Map<string, Array<{ sequence: number; lat: number; lng: number; distance: number | null }>>();
    for await (const row of this.table('shapes.txt')) {
      const id = row.get('shape_id');
      const sequence = Number(row.get('shape_pt_sequence'));
      const lat = Number(row.get('shape_pt_lat'));
      const lng = Number(row.get('shape_pt_lon'));
      if (!id || row.get('shape_pt_sequence') === '' || !Number.isInteger(sequence) || !isCoordinate(lat, lng) || row.get('shape_pt_lat') === '') {
        this.report.add('bad_shape_point', 'skipped', 'a shape point with a malformed id, sequence or position was skipped', `shapes.txt line ${row.line}: shape "${id}"`);
        continue;
      }
      const distanceText = row.get('shape_dist_traveled');
      const points = raw.get(id) ?? [];
      points.push({ sequence, lat, lng, distance: distanceText === '' ? null : Number(distanceText) });
      raw.set(id, points);
    }
    const shapes: ReadFeed['shapes'] = new Map();
    for (const [id, points] of raw) {
      points.sort((a, b) => a.sequence - b.sequence);
      if (points.length < 2) {
        this.report.add('short_shape', 'skipped', 'a shape with fewer than two points was skipped (its trips are drawn stop to stop)', `shape "${id}"`);
        continue;
      }
      shapes.set(id, { points: points.flatMap((point) => [round6(point.lng), round6(point.lat)]), distances: points.map((point) => (Number.isFinite(point.distance) ? point.distance : null)) });
    }
    return shapes;
  }

  private async trips(routes: Map<string, RouteRecord>, services: Map<string, ServiceRecord>, shapes: ReadFeed['shapes']): Promise<Map<string, PendingTrip>> {
    const trips = new Map<string, PendingTrip>();
    for await (const row of this.table('trips.txt')) {
      const where = `trips.txt line ${row.line}`;
      const id = row.get('trip_id');
      if (!id) {
        this.report.add('missing_id', 'skipped', 'a row without its id was skipped', `${where}: no trip_id`);
        continue;
      }
      if (trips.has(id)) {
        this.report.add('duplicate_id', 'skipped', 'a second row with an id already read was skipped', `${where}: trip_id "${id}"`);
        continue;
      }
      const route = row.get('route_id');
      if (!routes.has(route)) {
        this.report.add('trip_unknown_route', 'skipped', 'a trip whose route_id is not in routes.txt was skipped', `${where}: trip "${id}" → route "${route}"`);
        continue;
      }
      const service = row.get('service_id');
      if (!services.has(service)) {
        this.report.add('trip_unknown_service', 'skipped', 'a trip whose service_id is in neither calendar.txt nor calendar_dates.txt was skipped', `${where}: trip "${id}" → service "${service}"`);
        continue;
      }
      let shape: string | null = row.get('shape_id') || null;
      if (shape !== null && !shapes.has(shape)) {
        this.report.add('trip_unknown_shape', 'warning', 'a trip whose shape_id is not in shapes.txt is drawn stop to stop', `${where}: trip "${id}" → shape "${shape}"`);
        shape = null;
      }
      const direction = row.get('direction_id');
      trips.set(id, {
        record: { t: 'trip', id, route, service, shape, headsign: row.get('trip_headsign') || null, direction: direction === '0' || direction === '1' ? Number(direction) : null },
        line: row.line,
        rows: [],
        broken: false,
        frequencies: [],
      });
    }
    return trips;
  }

  private async stopTimes(trips: Map<string, PendingTrip>, stops: Map<string, StopRecord>): Promise<void> {
    for await (const row of this.table('stop_times.txt')) {
      const where = `stop_times.txt line ${row.line}`;
      const tripId = row.get('trip_id');
      const trip = trips.get(tripId);
      if (!trip) {
        this.report.add('stop_time_unknown_trip', 'skipped', 'a stop time whose trip_id is not a kept trip was skipped', `${where}: trip "${tripId}"`);
        continue;
      }
      if (trip.broken) continue;
      const stopId = row.get('stop_id');
      const stop = stops.get(stopId);
      if (!stop || stop.location_type !== 0) {
        this.report.add('stop_time_unknown_stop', 'skipped', 'a stop time whose stop_id is not a kept stop (or is a station) was skipped; the trip keeps its other stops', `${where}: trip "${tripId}" → stop "${stopId}"`);
        continue;
      }
      const sequenceText = row.get('stop_sequence');
      const sequence = Number(sequenceText);
      if (sequenceText === '' || !Number.isInteger(sequence) || sequence < 0) {
        this.report.add('bad_stop_sequence', 'skipped', 'a trip with a malformed stop_sequence was skipped', `${where}: trip "${tripId}", stop_sequence "${sequenceText}"`);
        trip.broken = true;
        continue;
      }
      const arrivalText = row.get('arrival_time');
      const departureText = row.get('departure_time');
      const arrival = arrivalText === '' ? null : parseGtfsTime(arrivalText);
      const departure = departureText === '' ? null : parseGtfsTime(departureText);
      if ((arrivalText !== '' && arrival === null) || (departureText !== '' && departure === null)) {
        this.report.add('bad_time', 'skipped', 'a trip with a malformed time (not H:MM:SS, or 72 hours or more) was skipped', `${where}: trip "${tripId}", arrival "${arrivalText}", departure "${departureText}"`);
        trip.broken = true;
        continue;
      }
      const distanceText = row.get('shape_dist_traveled');
      const distance = distanceText === '' ? null : Number(distanceText);
      trip.rows.push({
        sequence,
        stop: stopId,
        arrival: arrival ?? departure,
        departure: departure ?? arrival,
        noPickup: row.get('pickup_type') === '1' ? 1 : 0,
        noDropOff: row.get('drop_off_type') === '1' ? 1 : 0,
        distance: distance !== null && Number.isFinite(distance) ? distance : null,
        line: row.line,
      });
    }
  }

  private async frequencies(trips: Map<string, PendingTrip>): Promise<void> {
    for await (const row of this.table('frequencies.txt')) {
      const where = `frequencies.txt line ${row.line}`;
      const tripId = row.get('trip_id');
      const trip = trips.get(tripId);
      if (!trip) {
        this.report.add('frequency_unknown_trip', 'skipped', 'a frequency whose trip_id is not a kept trip was skipped', `${where}: trip "${tripId}"`);
        continue;
      }
      const start = parseGtfsTime(row.get('start_time'));
      const end = parseGtfsTime(row.get('end_time'));
      const headway = Number(row.get('headway_secs'));
      const exact = row.get('exact_times') || '0';
      if (start === null || end === null || end <= start || !Number.isInteger(headway) || headway <= 0 || (exact !== '0' && exact !== '1')) {
        this.report.add('bad_frequency', 'skipped', 'a frequency with malformed or reversed times, a headway that is not a positive number of seconds, or an unknown exact_times was skipped', `${where}: trip "${tripId}" ${row.get('start_time')}-${row.get('end_time')} every "${row.get('headway_secs')}" s, exact_times "${exact}"`);
        continue;
      }
      trip.frequencies.push({ start, end, headway, exact: exact === '1' ? 1 : 0 });
    }
  }

  /** Sorts each trip's stop times, fills the times it leaves empty, and keeps it only if its times run forward. */
  private finishTrips(pending: Map<string, PendingTrip>, stops: Map<string, StopRecord>, shapes: ReadFeed['shapes']): TripRecord[] {
    const trips: TripRecord[] = [];
    for (const trip of pending.values()) {
      const where = `trip "${trip.record.id}" (trips.txt line ${trip.line})`;
      if (trip.broken) continue;
      const rows = trip.rows.sort((a, b) => a.sequence - b.sequence);
      if (rows.length < 2) {
        this.report.add('trip_too_short', 'skipped', 'a trip with fewer than two usable stop times was skipped', `${where}: ${rows.length} stop time(s)`);
        continue;
      }
      if (rows.some((row, i) => i > 0 && row.sequence === rows[i - 1].sequence)) {
        this.report.add('duplicate_stop_sequence', 'skipped', 'a trip listing one stop_sequence twice was skipped', where);
        continue;
      }
      if (rows[0].departure === null || rows[rows.length - 1].arrival === null) {
        this.report.add('trip_missing_end_times', 'skipped', 'a trip without times at its first and last stop was skipped (the times between are interpolated, those cannot be)', where);
        continue;
      }
      const interpolated = interpolate(rows, stops);
      if (interpolated > 0) this.report.add('interpolated_times', 'warning', 'stop times the feed left empty were interpolated by distance along the trip', `${where}: ${interpolated} stop(s)`);
      const decreasing = rows.findIndex((row, i) => row.departure! < row.arrival! || (i > 0 && row.arrival! < rows[i - 1].departure!));
      if (decreasing >= 0) {
        const row = rows[decreasing];
        this.report.add('times_decrease', 'skipped', 'a trip whose times go backwards was skipped', `${where}: stop_times.txt line ${row.line} at ${formatGtfsTime(row.arrival!)} after ${formatGtfsTime(rows[Math.max(0, decreasing - 1)].departure!)}`);
        continue;
      }
      const shape = trip.record.shape ? shapes.get(trip.record.shape) : undefined;
      trips.push({
        ...trip.record,
        stops: rows.map((row) => row.stop),
        arrivals: rows.map((row) => row.arrival!),
        departures: rows.map((row) => row.departure!),
        no_pickup: rows.map((row) => row.noPickup),
        no_drop_off: rows.map((row) => row.noDropOff),
        shape_at: shape ? projectOnShape(shape.points, rows.map((row) => stops.get(row.stop)!)) : null,
        frequencies: trip.frequencies.sort((a, b) => a.start - b.start),
      });
    }
    return trips;
  }
}

/** Fills empty times between timed stops in proportion to distance (shape_dist_traveled when every stop has it, else straight lines). */
function interpolate(rows: StopTimeRow[], stops: Map<string, StopRecord>): number {
  const useShape = rows.every((row) => row.distance !== null);
  const along: number[] = [0];
  for (let i = 1; i < rows.length; i++) {
    if (useShape) along.push(rows[i].distance!);
    else {
      const a = stops.get(rows[i - 1].stop)!;
      const b = stops.get(rows[i].stop)!;
      along.push(along[i - 1] + greatCircleM(a.lat, a.lng, b.lat, b.lng));
    }
  }
  let filled = 0;
  let previous = 0;
  for (let i = 1; i < rows.length; i++) {
    if (rows[i].arrival !== null) {
      previous = i;
      continue;
    }
    let next = i + 1;
    while (rows[next].arrival === null) next++;
    const from = rows[previous].departure!;
    const to = rows[next].arrival!;
    const span = along[next] - along[previous];
    for (let j = i; j < next; j++) {
      const share = span > 0 ? (along[j] - along[previous]) / span : (j - previous) / (next - previous);
      const time = Math.round(from + (to - from) * share);
      rows[j].arrival = time;
      rows[j].departure = time;
      filled++;
    }
    previous = next;
    i = next;
  }
  return filled;
}

/**
 * For each stop, the index of the shape point nearest to it, moving forward
 * along the shape only (a route passing a stop twice is matched in order):
 * from the previous stop's point, the nearest point before the distance grows
 * well past the best found.
 */
export function projectOnShape(points: number[], stops: Array<{ lat: number; lng: number }>): number[] {
  const count = points.length / 2;
  const result: number[] = [];
  let from = 0;
  for (const stop of stops) {
    const cos = Math.cos((stop.lat * Math.PI) / 180);
    let best = from;
    let bestD = Infinity;
    for (let i = from; i < count; i++) {
      const dx = (points[2 * i] - stop.lng) * cos;
      const dy = points[2 * i + 1] - stop.lat;
      const d = Math.sqrt(dx * dx + dy * dy) * 111_320;
      if (d < bestD) {
        bestD = d;
        best = i;
      } else if (bestD < 100 && d > bestD + 500) break;
    }
    result.push(best);
    from = best;
  }
  return result;
}

async function writeDataset(writer: DatasetWriter, feed: ReadFeed, report: GtfsImportReport): Promise<Record<string, number>> {
  if (feed.trips.length === 0) {
    report.add('no_usable_trip', 'fatal', 'no trip survived the checks: nothing to route on', `${Object.values(report.files).reduce((a, b) => a + b, 0)} rows read`);
    throw new GtfsImportError('no usable trip in the feed: ' + report.summary().join('; '), report);
  }
  const usedStops = new Set(feed.trips.flatMap((trip) => trip.stops));
  for (const id of [...usedStops]) {
    const parent = feed.stops.get(id)?.parent;
    if (parent) usedStops.add(parent);
  }
  const usedShapes = new Set(feed.trips.map((trip) => trip.shape).filter((shape): shape is string => shape !== null));
  const usedServices = new Set(feed.trips.map((trip) => trip.service));
  const usedRoutes = new Set(feed.trips.map((trip) => trip.route));
  writer.add(feed.info);
  // Stops no trip serves are kept: a station's name, a stop a later feed may serve. Unused shapes, routes and services are not.
  for (const stop of feed.stops.values()) writer.add(stop);
  await writer.flushIfFull();
  for (const route of feed.routes.values()) if (usedRoutes.has(route.id)) writer.add(route);
  for (const service of feed.services.values()) if (usedServices.has(service.id)) writer.add(service);
  for (const [id, shape] of feed.shapes) {
    if (!usedShapes.has(id)) continue;
    await writer.write({ t: 'shape', id, points: shape.points });
  }
  for (const trip of feed.trips) await writer.write(trip);
  // Compiling the network now proves the dataset loads, and gives its figures.
  const network = new TransitNetwork([feed.info, ...feed.stops.values(), ...[...feed.routes.values()].filter((route) => usedRoutes.has(route.id)), ...[...feed.services.values()].filter((service) => usedServices.has(service.id)), ...feed.trips]);
  const frequencyTrips = feed.trips.filter((trip) => trip.frequencies.length > 0);
  return {
    stops: feed.stops.size,
    served_stops: usedStops.size,
    routes: usedRoutes.size,
    trips: feed.trips.length,
    frequency_trips: frequencyTrips.length,
    exact_times_trips: frequencyTrips.filter((trip) => trip.frequencies.some((frequency) => frequency.exact === 1)).length,
    stop_times: feed.trips.reduce((sum, trip) => sum + trip.stops.length, 0),
    services: usedServices.size,
    shapes: usedShapes.size,
    patterns: network.patterns.length,
    transfers: network.transferCount,
    problems: report.list().reduce((sum, problem) => sum + problem.count, 0),
    skipped: report.list().filter((problem) => problem.severity === 'skipped').reduce((sum, problem) => sum + problem.count, 0),
  };
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function colour(text: string): string | null {
  return /^[0-9a-fA-F]{6}$/.test(text) ? text.toLowerCase() : null;
}

function round6(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
