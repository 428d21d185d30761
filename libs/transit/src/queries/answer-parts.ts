import { Type } from '@sinclair/typebox';
import { Nullable } from '../../../platform/src/index.js';

/** Schema parts the transit answers share (ADR 39): the TransitStop object, routes, the dataset block. */

export const transitStopFields = {
  id: Type.String({ description: 'GTFS stop_id' }),
  name: Type.String(),
  code: Nullable(Type.String({ description: 'GTFS stop_code' })),
  lat: Type.Number(),
  lng: Type.Number(),
  parent_station: Nullable(Type.Object({ id: Type.String(), name: Type.String() }, { description: 'The station the stop belongs to (GTFS parent_station)' })),
};
export const TransitStopSchema = Type.Object(transitStopFields, { description: 'TransitStop' });

export const TransitRouteSchema = Type.Object({
  id: Type.String({ description: 'GTFS route_id' }),
  short_name: Nullable(Type.String()),
  long_name: Nullable(Type.String()),
  name: Type.String({ description: 'Short and long name together, else the id' }),
  type: Type.Integer({ description: 'GTFS route_type (basic or extended)' }),
  mode: Type.String({ description: 'route_type as a word: bus, rail, tram, ferry, coach, taxi, …' }),
  color: Nullable(Type.String({ description: '#RRGGBB' })),
  text_color: Nullable(Type.String()),
});

export const TransitDatasetSchema = Type.Object({
  dataset: Type.String(),
  version: Type.String(),
  imported_at: Type.String({ format: 'date-time' }),
  timezone: Type.String({ description: "The feed's time zone: `date`, `time` and the local times are in it" }),
  calendar_start: Nullable(Type.String({ format: 'date' })),
  calendar_end: Nullable(Type.String({ format: 'date' })),
});

export const STOP_EXAMPLE = { id: 'ACC_KANESHIE_01', name: 'Kaneshie Market', code: 'KNS1', lat: 5.5667, lng: -0.2335, parent_station: null };
export const ROUTE_EXAMPLE = { id: 'R101', short_name: '101', long_name: 'Kaneshie – Circle', name: '101 Kaneshie – Circle', type: 3, mode: 'bus', color: '#F4A300', text_color: '#000000' };
export const DATASET_EXAMPLE = { dataset: 'transit/accra', version: '2026-10-15', imported_at: '2026-10-15T05:00:00.000Z', timezone: 'Africa/Accra', calendar_start: '2026-10-01', calendar_end: '2027-03-31' };
