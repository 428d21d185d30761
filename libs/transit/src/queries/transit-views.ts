import { InvalidParamError } from '../../../platform/src/index.js';
import { formatDay, formatGtfsTime, instantOf, localOf, parseClockTime, parseIsoDate, type DayNumber } from '../domain/clock-time.js';
import { isCoordinate } from '../../../platform/src/geo/geodesy.js';
import type { Point } from '../domain/geo.js';
import { routeMode, routeName, type Route, type Stop, type TransitNetwork } from '../domain/network.js';
import type { LoadedFeed } from '../public/transit-feeds.js';

/**
 * Shapes shared by the transit endpoints: the TransitStop object, routes,
 * times (ISO 8601 UTC, plus the feed's local clock), the dataset block, and
 * the request's date/time as the feed's local day and seconds.
 */

export interface TransitStopView {
  id: string;
  name: string;
  code: string | null;
  lat: number;
  lng: number;
  /** The station the stop belongs to (GTFS parent_station), or null. */
  parent_station: { id: string; name: string } | null;
}

export function stopView(network: TransitNetwork, index: number): TransitStopView {
  const stop: Stop = network.stops[index];
  const parent = stop.parent >= 0 ? network.stops[stop.parent] : null;
  return { id: stop.id, name: stop.name, code: stop.code, lat: stop.lat, lng: stop.lng, parent_station: parent ? { id: parent.id, name: parent.name } : null };
}

export function routeView(route: Route) {
  return {
    id: route.id,
    short_name: route.shortName,
    long_name: route.longName,
    name: routeName(route),
    type: route.type,
    mode: routeMode(route.type),
    color: route.color === null ? null : `#${route.color}`,
    text_color: route.textColor === null ? null : `#${route.textColor}`,
  };
}

/** An instant of the requested day as ISO 8601 UTC (seconds may pass 86,400: the next morning). */
export function isoTime(feed: LoadedFeed, day: DayNumber, seconds: number): string {
  return new Date(instantOf(day, Math.round(seconds), feed.network.timezone)).toISOString().replace('.000Z', 'Z');
}

export function localTime(seconds: number): string {
  return formatGtfsTime(seconds);
}

export function datasetView(feed: LoadedFeed) {
  const network = feed.network;
  return {
    dataset: feed.dataset,
    version: feed.version,
    imported_at: feed.imported_at,
    timezone: network.timezone,
    calendar_start: network.startDay === null ? null : formatDay(network.startDay),
    calendar_end: network.endDay === null ? null : formatDay(network.endDay),
  };
}

/** A request's `date` and `time` as the feed's local day and seconds; each defaults to now in the feed's zone. */
export function requestedMoment(feed: LoadedFeed, now: Date, date: string | undefined, time: string | undefined): { day: DayNumber; seconds: number } {
  const local = localOf(now.getTime(), feed.network.timezone);
  let day = local.day;
  let seconds = local.seconds;
  if (date !== undefined) {
    const parsed = parseIsoDate(date);
    if (parsed === null) throw new InvalidParamError('date must be a calendar date YYYY-MM-DD', 'date');
    day = parsed;
  }
  if (time !== undefined) {
    const parsed = parseClockTime(time);
    if (parsed === null) throw new InvalidParamError('time must be a clock time HH:MM or HH:MM:SS (00:00 to 23:59:59)', 'time');
    seconds = parsed;
  }
  return { day, seconds };
}

/** Checks `date` and `time` before any feed is needed (a malformed value is 400 even with no feed imported). */
export function checkDateTime(date: string | undefined, time: string | undefined): void {
  if (date !== undefined && parseIsoDate(date) === null) throw new InvalidParamError('date must be a calendar date YYYY-MM-DD', 'date');
  if (time !== undefined && parseClockTime(time) === null) throw new InvalidParamError('time must be a clock time HH:MM or HH:MM:SS (00:00 to 23:59:59)', 'time');
}

/** `{lat, lng}` or `"lat,lng"`. */
export function pointOf(value: unknown, field: string): Point {
  let lat: unknown;
  let lng: unknown;
  if (typeof value === 'string') {
    const parts = value.split(',');
    if (parts.length === 2 && parts.every((part) => /^\s*-?\d{1,3}(\.\d+)?\s*$/.test(part))) [lat, lng] = parts.map(Number);
  } else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const keys = Object.keys(value);
    const extra = keys.find((key) => key !== 'lat' && key !== 'lng');
    if (extra) throw new InvalidParamError(`${field}.${extra} is not a field of a point; give {lat, lng}`, `${field}.${extra}`);
    ({ lat, lng } = value as { lat?: unknown; lng?: unknown });
    if (typeof lat !== 'number' || !Number.isFinite(lat) || lat < -90 || lat > 90) throw new InvalidParamError(`${field}.lat must be a number from -90 to 90`, `${field}.lat`);
    if (typeof lng !== 'number' || !Number.isFinite(lng) || lng < -180 || lng > 180) throw new InvalidParamError(`${field}.lng must be a number from -180 to 180`, `${field}.lng`);
  }
  if (typeof lat !== 'number' || typeof lng !== 'number' || !isCoordinate(lat, lng)) throw new InvalidParamError(`${field} must be a point {lat, lng} (or "lat,lng")`, field);
  return { lat, lng };
}
