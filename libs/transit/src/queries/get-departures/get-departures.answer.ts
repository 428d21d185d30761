import { Type } from '@sinclair/typebox';
import { defineAnswer, Nullable } from '../../../../platform/src/index.js';
import { DATASET_EXAMPLE, ROUTE_EXAMPLE, STOP_EXAMPLE, TransitDatasetSchema, TransitRouteSchema, TransitStopSchema, transitStopFields } from '../answer-parts.js';

const StopWithDistanceSchema = Type.Object({ ...transitStopFields, distance_m: Type.Integer({ description: 'From the point asked' }) });

/** GET /v2/transit/departures (ADR 39). */
export const GetDeparturesAnswerSchema = defineAnswer(
  'DepartureBoardAnswer',
  Type.Object({
    lat: Type.Number(),
    lng: Type.Number(),
    radius_m: Type.Number(),
    time: Type.String({ format: 'date-time', description: 'The moment the board is for' }),
    service_date: Type.String({ format: 'date', description: 'The service day whose timetable answered' }),
    timetable_out_of_date: Type.Boolean({ description: "The feed's calendar does not cover the day: its last week answered" }),
    stops: Type.Array(StopWithDistanceSchema),
    lines: Type.Array(
      Type.Object({
        route: TransitRouteSchema,
        destination: Type.String({ description: 'The trip headsign, else its last stop' }),
        stop: StopWithDistanceSchema,
        last_stop: TransitStopSchema,
        next_departures: Type.Array(Type.Object({ departure_time: Type.String({ format: 'date-time' }), local_time: Type.String({ description: "HH:MM:SS on the feed's clock" }), trip_id: Type.String() })),
        frequency_based: Type.Boolean({ description: 'Headway-based (frequencies.txt): `headway` instead of a timetable' }),
        no_more_today: Type.Boolean(),
        headway: Nullable(
          Type.Object({
            headway_s: Type.Integer(),
            running: Type.Boolean({ description: 'The window is running at `time`' }),
            from_time: Type.String({ format: 'date-time' }),
            until_time: Type.String({ format: 'date-time' }),
            from_local: Type.String(),
            until_local: Type.String(),
          }),
        ),
      }),
    ),
    note: Nullable(Type.String()),
    dataset: TransitDatasetSchema,
    attribution: Type.Array(Type.String()),
  }),
  {
    lat: 5.5668,
    lng: -0.2331,
    radius_m: 400,
    time: '2026-11-27T07:30:00Z',
    service_date: '2026-11-27',
    timetable_out_of_date: false,
    stops: [{ ...STOP_EXAMPLE, distance_m: 45 }],
    lines: [
      {
        route: ROUTE_EXAMPLE,
        destination: 'Circle',
        stop: { ...STOP_EXAMPLE, distance_m: 45 },
        last_stop: { id: 'ACC_CIRCLE_03', name: 'Kwame Nkrumah Circle', code: 'CIR3', lat: 5.5701, lng: -0.2153, parent_station: null },
        next_departures: [],
        frequency_based: true,
        no_more_today: false,
        headway: { headway_s: 600, running: true, from_time: '2026-11-27T05:00:00Z', until_time: '2026-11-27T21:00:00Z', from_local: '05:00:00', until_local: '21:00:00' },
      },
    ],
    note: null,
    dataset: DATASET_EXAMPLE,
    attribution: ['Accra Mobility Data (CC BY 4.0)'],
  },
);
