import { Type } from '@sinclair/typebox';
import { defineAnswer, Nullable } from '../../../../platform/src/index.js';
import { DATASET_EXAMPLE, ROUTE_EXAMPLE, STOP_EXAMPLE, TransitDatasetSchema, TransitRouteSchema, TransitStopSchema, transitStopFields } from '../answer-parts.js';

const LineSchema = Type.Array(Type.Array(Type.Number(), { minItems: 2, maxItems: 2 }), { description: '[lng, lat] pairs' });

const PlaceSchema = Type.Object({
  lat: Type.Number(),
  lng: Type.Number(),
  name: Nullable(Type.String({ description: "The stop's name; null for the trip's own origin or destination" })),
  stop: Nullable(TransitStopSchema),
});

const timing = {
  departure_time: Type.String({ format: 'date-time' }),
  arrival_time: Type.String({ format: 'date-time' }),
  duration_s: Type.Integer(),
  distance_m: Type.Integer(),
};

const WalkLegSchema = Type.Object({ mode: Type.Literal('walk'), from: PlaceSchema, to: PlaceSchema, ...timing, geometry: LineSchema });

const TransitLegSchema = Type.Object({
  mode: Type.Literal('transit'),
  route: TransitRouteSchema,
  trip_id: Type.String(),
  headsign: Type.String(),
  ...timing,
  stops: Type.Array(
    Type.Object({
      ...transitStopFields,
      arrival_time: Nullable(Type.String({ format: 'date-time', description: 'null at the boarding stop' })),
      departure_time: Nullable(Type.String({ format: 'date-time', description: 'null at the alighting stop' })),
    }),
    { description: 'Board at the first, alight at the last; the ones between are passed' },
  ),
  frequency_based: Type.Boolean(),
  headway_s: Nullable(Type.Integer()),
  expected_wait_s: Nullable(Type.Integer({ description: 'Headway-based (exact_times=0): the wait assumed at the boarding stop, half the headway' })),
  times_estimated: Type.Boolean({ description: 'Times come from a headway, not a timetable' }),
  geometry: LineSchema,
});

const TripRefSchema = Type.Object({
  departure_time: Type.String({ format: 'date-time' }),
  local_time: Type.String(),
  route: TransitRouteSchema,
  headsign: Type.String(),
  stop: TransitStopSchema,
});

/** POST /v2/route/transit (ADR 39). */
export const PlanTransitTripAnswerSchema = defineAnswer(
  'TransitTripAnswer',
  Type.Object({
    itineraries: Type.Array(
      Type.Object({
        walk_only: Type.Boolean(),
        departure_time: Type.String({ format: 'date-time' }),
        arrival_time: Type.String({ format: 'date-time' }),
        duration_s: Type.Integer(),
        vehicles: Type.Integer(),
        transfers: Type.Integer(),
        walk_distance_m: Type.Integer(),
        legs: Type.Array(Type.Union([WalkLegSchema, TransitLegSchema])),
      }),
      { maxItems: 3 },
    ),
    no_transit: Type.Boolean({ description: 'No itinerary uses a vehicle (none found included)' }),
    note: Nullable(Type.String()),
    first_trip: Type.Optional(TripRefSchema),
    last_trip: Type.Optional(TripRefSchema),
    service_date: Type.String({ format: 'date' }),
    timetable_out_of_date: Type.Boolean(),
    dataset: TransitDatasetSchema,
    attribution: Type.Array(Type.String()),
  }),
  {
    itineraries: [
      {
        walk_only: false,
        departure_time: '2026-11-27T07:30:00Z',
        arrival_time: '2026-11-27T07:52:00Z',
        duration_s: 1320,
        vehicles: 1,
        transfers: 0,
        walk_distance_m: 310,
        legs: [
          {
            mode: 'walk',
            from: { lat: 5.5652, lng: -0.2349, name: null, stop: null },
            to: { lat: STOP_EXAMPLE.lat, lng: STOP_EXAMPLE.lng, name: STOP_EXAMPLE.name, stop: STOP_EXAMPLE },
            departure_time: '2026-11-27T07:30:00Z',
            arrival_time: '2026-11-27T07:33:00Z',
            duration_s: 180,
            distance_m: 210,
            geometry: [[-0.2349, 5.5652], [STOP_EXAMPLE.lng, STOP_EXAMPLE.lat]],
          },
          {
            mode: 'transit',
            route: ROUTE_EXAMPLE,
            trip_id: 'R101_0730',
            headsign: 'Circle',
            departure_time: '2026-11-27T07:38:00Z',
            arrival_time: '2026-11-27T07:51:00Z',
            duration_s: 780,
            distance_m: 2140,
            stops: [
              { ...STOP_EXAMPLE, arrival_time: null, departure_time: '2026-11-27T07:38:00Z' },
              { id: 'ACC_CIRCLE_03', name: 'Kwame Nkrumah Circle', code: 'CIR3', lat: 5.5701, lng: -0.2153, parent_station: null, arrival_time: '2026-11-27T07:51:00Z', departure_time: null },
            ],
            frequency_based: true,
            headway_s: 600,
            expected_wait_s: 300,
            times_estimated: true,
            geometry: [[STOP_EXAMPLE.lng, STOP_EXAMPLE.lat], [-0.2153, 5.5701]],
          },
        ],
      },
    ],
    no_transit: false,
    note: null,
    service_date: '2026-11-27',
    timetable_out_of_date: false,
    dataset: DATASET_EXAMPLE,
    attribution: ['Accra Mobility Data (CC BY 4.0)'],
  },
);
