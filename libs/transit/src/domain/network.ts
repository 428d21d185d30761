import { DAY_S, formatDay, parseGtfsDate, weekdayOf, type DayNumber } from './clock-time.js';
import type { FeedInfoRecord, FeedRecord, FrequencyRecord, RouteRecord, ServiceRecord, StopRecord, TripRecord } from './feed-records.js';
import { PointGrid } from './geo.js';
import { TRANSFER_RADIUS_M, walkOf } from './walking.js';

/**
 * A transit dataset compiled for RAPTOR (docs/adr/0019): stops, routes, trips
 * grouped into patterns (same route, same stop sequence, no trip overtaking
 * another, so the earliest trip at one stop is the earliest at every later
 * one), the patterns through each stop, and the walking transfers between
 * nearby stops, as flat arrays indexed by number.
 */

export interface Stop {
  index: number;
  id: string;
  name: string;
  lat: number;
  lng: number;
  code: string | null;
  /** Index of the parent station, or -1. */
  parent: number;
  /** A station (location_type 1): named as a parent, never boarded at itself. */
  station: boolean;
}

export interface Route {
  index: number;
  id: string;
  shortName: string | null;
  longName: string | null;
  type: number;
  color: string | null;
  textColor: string | null;
}

export interface Trip {
  index: number;
  id: string;
  route: number;
  service: number;
  pattern: number;
  headsign: string | null;
  shape: number;
  arrivals: Int32Array;
  departures: Int32Array;
  noPickup: Uint8Array;
  noDropOff: Uint8Array;
  shapeAt: Int32Array | null;
  frequencies: FrequencyRecord[];
}

export interface Pattern {
  index: number;
  route: number;
  stops: Int32Array;
  /** Timetabled trips, earliest first (no overtaking: sorted at one stop is sorted at all). */
  trips: number[];
  /** Trips run by frequencies.txt; each is its own family of vehicles. */
  frequencyTrips: number[];
  /** Where the vehicles go: the most common trip headsign, else the last stop's name. */
  destination: string;
}

export interface Service {
  id: string;
  days: number[] | null;
  start: DayNumber | null;
  end: DayNumber | null;
  added: Set<DayNumber>;
  removed: Set<DayNumber>;
}

/** Which day of the timetable answers for a requested day (docs/adr/0019, "An out-of-date feed"). */
export interface ServiceDay {
  requested: DayNumber;
  used: DayNumber;
  /** The feed's calendar does not cover the requested day: the same weekday of its first or last week is used. */
  outOfRange: 'ended' | 'not_started' | null;
}

const ACTIVE_CACHE_DAYS = 16;

export class TransitNetwork {
  readonly stops: Stop[] = [];
  readonly routes: Route[] = [];
  readonly trips: Trip[] = [];
  readonly patterns: Pattern[] = [];
  readonly services: Service[] = [];
  readonly shapes: Float64Array[] = [];
  readonly feed: FeedInfoRecord;
  readonly timezone: string;
  /** First and last day any calendar covers. */
  readonly startDay: DayNumber | null;
  readonly endDay: DayNumber | null;
  /** Stop → (pattern, position) of every pattern through it: CSR arrays. */
  readonly stopPatternStart: Int32Array;
  readonly stopPatternPattern: Int32Array;
  readonly stopPatternPosition: Int32Array;
  /** Stop → nearby stops and the walk there, in seconds: CSR arrays. */
  readonly transferStart: Int32Array;
  readonly transferTo: Int32Array;
  readonly transferSeconds: Int32Array;
  /** Boardable stops (not stations) by position. */
  readonly grid: PointGrid;
  /** The latest time (seconds after the service day's start) any trip runs: how far into the next day yesterday's trips reach. */
  readonly maxTripSeconds: number;
  private readonly stopById = new Map<string, number>();
  private readonly activeCache = new Map<DayNumber, Uint8Array>();

  constructor(records: Iterable<FeedRecord>) {
    let feed: FeedInfoRecord | null = null;
    const routeById = new Map<string, number>();
    const serviceById = new Map<string, number>();
    const shapeById = new Map<string, number>();
    const tripRecords: TripRecord[] = [];
    const pendingParents: Array<[number, string]> = [];
    for (const record of records) {
      switch (record.t) {
        case 'feed':
          feed = record;
          break;
        case 'stop':
          this.addStop(record, pendingParents);
          break;
        case 'route':
          routeById.set(record.id, this.routes.length);
          this.routes.push(routeOf(record, this.routes.length));
          break;
        case 'service':
          serviceById.set(record.id, this.services.length);
          this.services.push(serviceOf(record));
          break;
        case 'shape':
          shapeById.set(record.id, this.shapes.length);
          this.shapes.push(Float64Array.from(record.points));
          break;
        case 'trip':
          tripRecords.push(record);
          break;
        default: {
          const _exhaustive: never = record;
          void _exhaustive;
        }
      }
    }
    if (!feed) throw new Error('a transit dataset starts with its feed record');
    this.feed = feed;
    this.timezone = feed.timezone;
    for (const [stop, parentId] of pendingParents) this.stops[stop].parent = this.stopById.get(parentId) ?? -1;

    let maxSeconds = 0;
    const tripStops: number[][] = [];
    for (const record of tripRecords) {
      const route = routeById.get(record.route);
      const service = serviceById.get(record.service);
      const stops = record.stops.map((id) => this.stopById.get(id));
      // The importer wrote only trips whose references hold; a hand-edited dataset is checked anyway.
      if (route === undefined || service === undefined || stops.some((stop) => stop === undefined) || stops.length < 2) continue;
      const trip: Trip = {
        index: this.trips.length,
        id: record.id,
        route,
        service,
        pattern: -1,
        headsign: record.headsign,
        shape: record.shape === null ? -1 : (shapeById.get(record.shape) ?? -1),
        arrivals: Int32Array.from(record.arrivals),
        departures: Int32Array.from(record.departures),
        noPickup: Uint8Array.from(record.no_pickup),
        noDropOff: Uint8Array.from(record.no_drop_off),
        shapeAt: record.shape_at && record.shape !== null && shapeById.has(record.shape) ? Int32Array.from(record.shape_at) : null,
        frequencies: record.frequencies,
      };
      const last = trip.arrivals[trip.arrivals.length - 1];
      const span = last - trip.departures[0];
      for (const frequency of trip.frequencies) maxSeconds = Math.max(maxSeconds, frequency.end + span);
      maxSeconds = Math.max(maxSeconds, last);
      this.trips.push(trip);
      tripStops.push(stops as number[]);
    }
    this.maxTripSeconds = maxSeconds;
    this.buildPatterns(tripStops);

    const days = this.services.flatMap((service) => [service.start, service.end, ...service.added].filter((day): day is number => day !== null));
    this.startDay = days.length > 0 ? Math.min(...days) : null;
    this.endDay = days.length > 0 ? Math.max(...days) : null;

    // Stop → patterns.
    const counts = new Int32Array(this.stops.length + 1);
    for (const pattern of this.patterns) for (const stop of pattern.stops) counts[stop + 1]++;
    for (let i = 0; i < this.stops.length; i++) counts[i + 1] += counts[i];
    this.stopPatternStart = counts.slice();
    this.stopPatternPattern = new Int32Array(counts[this.stops.length]);
    this.stopPatternPosition = new Int32Array(counts[this.stops.length]);
    const fill = counts.slice();
    for (const pattern of this.patterns) {
      pattern.stops.forEach((stop, position) => {
        const at = fill[stop]++;
        this.stopPatternPattern[at] = pattern.index;
        this.stopPatternPosition[at] = position;
      });
    }

    this.grid = new PointGrid(
      this.stops.map((stop) => stop.lat),
      this.stops.map((stop) => stop.lng),
      (index) => !this.stops[index].station,
    );
    // Walking transfers between boardable stops served by some pattern.
    const served = (index: number) => this.stopPatternStart[index + 1] > this.stopPatternStart[index];
    const transferStart = new Int32Array(this.stops.length + 1);
    const to: number[] = [];
    const seconds: number[] = [];
    for (const stop of this.stops) {
      if (served(stop.index)) {
        for (const near of this.grid.within(stop.lat, stop.lng, TRANSFER_RADIUS_M)) {
          if (near.index === stop.index || !served(near.index)) continue;
          to.push(near.index);
          seconds.push(walkOf(near.distanceM).seconds);
        }
      }
      transferStart[stop.index + 1] = to.length;
    }
    this.transferStart = transferStart;
    this.transferTo = Int32Array.from(to);
    this.transferSeconds = Int32Array.from(seconds);
  }

  get transferCount(): number {
    return this.transferTo.length;
  }

  stopIndex(id: string): number | undefined {
    return this.stopById.get(id);
  }

  /** Services running on `day`: 1 per service index. Cached for the few days queries ask about. */
  activeOn(day: DayNumber): Uint8Array {
    let active = this.activeCache.get(day);
    if (active) return active;
    active = new Uint8Array(this.services.length);
    const weekday = weekdayOf(day);
    this.services.forEach((service, i) => {
      let runs = service.days !== null && service.start !== null && service.end !== null && day >= service.start && day <= service.end && service.days[weekday] === 1;
      if (service.added.has(day)) runs = true;
      if (service.removed.has(day)) runs = false;
      active![i] = runs ? 1 : 0;
    });
    if (this.activeCache.size >= ACTIVE_CACHE_DAYS) this.activeCache.delete(this.activeCache.keys().next().value!);
    this.activeCache.set(day, active);
    return active;
  }

  /**
   * The day of the timetable that answers for `day`: itself inside the feed's
   * calendar; outside it, the same weekday of the calendar's last (or first)
   * week, so an expired feed still serves (informal services keep running)
   * and the answer says so.
   */
  serviceDay(day: DayNumber): ServiceDay {
    if (this.startDay === null || this.endDay === null) return { requested: day, used: day, outOfRange: null };
    if (day > this.endDay) {
      const used = this.endDay - ((((weekdayOf(this.endDay) - weekdayOf(day)) % 7) + 7) % 7);
      return { requested: day, used: Math.max(used, this.startDay), outOfRange: 'ended' };
    }
    if (day < this.startDay) {
      const used = this.startDay + ((((weekdayOf(day) - weekdayOf(this.startDay)) % 7) + 7) % 7);
      return { requested: day, used: Math.min(used, this.endDay), outOfRange: 'not_started' };
    }
    return { requested: day, used: day, outOfRange: null };
  }

  /** What an out-of-range day's answer says about the data's age; null inside the calendar. */
  outOfDateNote(serviceDay: ServiceDay): string | null {
    if (serviceDay.outOfRange === 'ended') {
      return `The timetable is out of date: this feed's calendar ended on ${formatDay(this.endDay!)}. Times are those of ${formatDay(serviceDay.used)}, the same weekday in its last week; informal services often still run, but check locally.`;
    }
    if (serviceDay.outOfRange === 'not_started') {
      return `This feed's calendar starts on ${formatDay(this.startDay!)}. Times are those of ${formatDay(serviceDay.used)}, the same weekday in its first week.`;
    }
    return null;
  }

  /** Yesterday's trips still running `seconds` into today (times past 24:00:00). */
  reachesIntoNextDay(seconds: number): boolean {
    return this.maxTripSeconds > DAY_S + seconds;
  }

  private addStop(record: StopRecord, pendingParents: Array<[number, string]>): void {
    if (this.stopById.has(record.id)) return;
    const index = this.stops.length;
    this.stopById.set(record.id, index);
    this.stops.push({ index, id: record.id, name: record.name, lat: record.lat, lng: record.lng, code: record.code, parent: -1, station: record.location_type === 1 });
    if (record.parent) pendingParents.push([index, record.parent]);
  }

  private buildPatterns(tripStops: number[][]): void {
    const groups = new Map<string, Trip[]>();
    for (const trip of this.trips) {
      const key = `${trip.route}|${tripStops[trip.index].join(',')}`;
      const group = groups.get(key);
      if (group) group.push(trip);
      else groups.set(key, [trip]);
    }
    for (const group of groups.values()) {
      const stops = Int32Array.from(tripStops[group[0].index]);
      const timetabled = group.filter((trip) => trip.frequencies.length === 0).sort((a, b) => a.departures[0] - b.departures[0] || a.index - b.index);
      const frequencyTrips = group.filter((trip) => trip.frequencies.length > 0);
      // Split so that no trip overtakes another within a pattern (a fast trip after a slow one gets its own).
      const lanes: Trip[][] = [];
      for (const trip of timetabled) {
        const lane = lanes.find((candidate) => !overtakes(candidate[candidate.length - 1], trip));
        if (lane) lane.push(trip);
        else lanes.push([trip]);
      }
      if (lanes.length === 0) lanes.push([]);
      lanes.forEach((lane, i) => {
        const members = i === 0 ? [...lane, ...frequencyTrips] : lane;
        const pattern: Pattern = {
          index: this.patterns.length,
          route: group[0].route,
          stops,
          trips: lane.map((trip) => trip.index),
          frequencyTrips: i === 0 ? frequencyTrips.map((trip) => trip.index) : [],
          destination: destinationOf(members, this.stops[stops[stops.length - 1]].name),
        };
        for (const trip of members) trip.pattern = pattern.index;
        this.patterns.push(pattern);
      });
    }
  }
}

/** True when `later` (departing after `earlier`) arrives or departs before it somewhere. */
function overtakes(earlier: Trip, later: Trip): boolean {
  for (let i = 0; i < earlier.departures.length; i++) {
    if (later.departures[i] < earlier.departures[i] || later.arrivals[i] < earlier.arrivals[i]) return true;
  }
  return false;
}

function destinationOf(trips: Trip[], lastStopName: string): string {
  const counts = new Map<string, number>();
  for (const trip of trips) if (trip.headsign) counts.set(trip.headsign, (counts.get(trip.headsign) ?? 0) + 1);
  let best: string | null = null;
  for (const [headsign, count] of counts) if (best === null || count > counts.get(best)!) best = headsign;
  return best ?? lastStopName;
}

function routeOf(record: RouteRecord, index: number): Route {
  return { index, id: record.id, shortName: record.short_name, longName: record.long_name, type: record.type, color: record.color, textColor: record.text_color };
}

function serviceOf(record: ServiceRecord): Service {
  const days = (list: string[]) => new Set(list.map(parseGtfsDate).filter((day): day is number => day !== null));
  return {
    id: record.id,
    days: record.days,
    start: record.start === null ? null : parseGtfsDate(record.start),
    end: record.end === null ? null : parseGtfsDate(record.end),
    added: days(record.added),
    removed: days(record.removed),
  };
}

/** A route's name for people: "521 Chemuna ↔ Accra New Tema Station", or whichever of the two it has. */
export function routeName(route: Route): string {
  return [route.shortName, route.longName].filter((part) => part && part.trim() !== '').join(' ') || route.id;
}

/** GTFS route_type as a word (basic and extended types). */
export function routeMode(type: number): string {
  const basic: Record<number, string> = { 0: 'tram', 1: 'subway', 2: 'rail', 3: 'bus', 4: 'ferry', 5: 'cable_tram', 6: 'aerial_lift', 7: 'funicular', 11: 'trolleybus', 12: 'monorail' };
  if (type in basic) return basic[type];
  if (type >= 100 && type < 200) return 'rail';
  if (type >= 200 && type < 300) return 'coach';
  if (type >= 700 && type < 800) return 'bus';
  if (type >= 900 && type < 1000) return 'tram';
  if (type >= 1000 && type < 1100) return 'ferry';
  if (type >= 1500 && type < 1600) return 'taxi';
  return 'other';
}
