/**
 * A transit dataset version as the GTFS importer writes it (one JSON record a
 * line, docs/adr/0019): the feed cleaned of what the import report lists
 * (dangling references, malformed times, trips without two timed stops), so
 * that loading it never has to judge anything. Order: the feed record, stops,
 * routes, services, shapes, trips.
 */

export interface FeedInfoRecord {
  t: 'feed';
  /** IANA zone of the feed's times (agency_timezone); UTC when the feed names none. */
  timezone: string;
  agencies: Array<{ id: string | null; name: string; url: string | null }>;
  /** The first and last service days the calendars cover, YYYYMMDD; null when no calendar gives a date. */
  start_date: string | null;
  end_date: string | null;
  publisher: string | null;
  version: string | null;
}

export interface StopRecord {
  t: 'stop';
  id: string;
  name: string;
  lat: number;
  lng: number;
  /** 0 (or empty): a stop or platform one boards at; 1: a station, parent of stops. Entrances and nodes are not kept. */
  location_type: 0 | 1;
  parent: string | null;
  code: string | null;
}

export interface RouteRecord {
  t: 'route';
  id: string;
  short_name: string | null;
  long_name: string | null;
  /** GTFS route_type (3 bus, 0 tram, 1 metro, 2 rail, 4 ferry…; extended types kept as they are). */
  type: number;
  color: string | null;
  text_color: string | null;
  agency: string | null;
}

export interface ServiceRecord {
  t: 'service';
  id: string;
  /** Monday … Sunday from calendar.txt; null when the service has calendar_dates.txt entries only. */
  days: [number, number, number, number, number, number, number] | null;
  start: string | null;
  end: string | null;
  /** calendar_dates.txt: exception_type 1 and 2. */
  added: string[];
  removed: string[];
}

export interface ShapeRecord {
  t: 'shape';
  id: string;
  /** [lng, lat] pairs flattened, 6 decimals (0.1 m), in shape_pt_sequence order. */
  points: number[];
}

export interface FrequencyRecord {
  /** Seconds after the service day's start at which the first stop's departures begin and end (end exclusive). */
  start: number;
  end: number;
  headway: number;
  /** 1: departures exactly every `headway` from `start`; 0: headway-based, no timetable (GTFS exact_times). */
  exact: 0 | 1;
}

export interface TripRecord {
  t: 'trip';
  id: string;
  route: string;
  service: string;
  shape: string | null;
  headsign: string | null;
  direction: number | null;
  /** Stop ids in stop_sequence order, with their times in seconds (interpolated where the feed left them empty). */
  stops: string[];
  arrivals: number[];
  departures: number[];
  /** 1 where pickup_type / drop_off_type say one cannot board / alight there. */
  no_pickup: number[];
  no_drop_off: number[];
  /** Index into the shape's points of each stop (nearest along the shape), when the trip has a shape. */
  shape_at: number[] | null;
  /** frequencies.txt rows: the stop times are then a template, shifted to each departure. */
  frequencies: FrequencyRecord[];
}

export type FeedRecord = FeedInfoRecord | StopRecord | RouteRecord | ServiceRecord | ShapeRecord | TripRecord;
