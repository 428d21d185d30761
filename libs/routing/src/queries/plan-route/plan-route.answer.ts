import { Type } from '@sinclair/typebox';
import { defineAnswer, Nullable } from '../../../../platform/src/index.js';
import { ATTRIBUTION_EXAMPLE, LngLatSchema, ModeSchema } from '../answer-parts.js';

const TurnClassSchema = Type.Union(
  [
    ...(['depart', 'arrive', 'waypoint', 'straight', 'slight_left', 'slight_right', 'left', 'right', 'sharp_left', 'sharp_right', 'uturn'] as const).map((turn) => Type.Literal(turn)),
    Type.TemplateLiteral([Type.Literal('roundabout_exit_'), Type.Number()]),
  ],
  { description: 'From the turn angle; a roundabout is `roundabout_exit_<n>`' },
);

const RouteStepSchema = Type.Object({
  instruction: Type.String(),
  name: Type.String({ description: 'The road name; empty when the road has none' }),
  ref: Nullable(Type.String({ description: 'The road number (N1, R40)' })),
  distance_m: Type.Number(),
  duration_s: Type.Number(),
  coordinates: Type.Array(LngLatSchema),
  maneuver_point: LngLatSchema,
  bearing_before: Type.Number(),
  bearing_after: Type.Number(),
  turn_angle: Type.Number({ description: '−180..180, positive to the right' }),
  turn_class: TurnClassSchema,
  roundabout_exit: Type.Optional(Type.Integer({ description: 'Roundabout steps only' })),
  surface: Type.Union([Type.Literal('paved'), Type.Literal('unpaved'), Type.Literal('unknown')]),
  surface_color: Type.String({ description: 'paved #2E7D32, unpaved #8D6E63, unknown #9E9E9E' }),
  verbal_alert: Type.String({ description: 'Spoken before the manoeuvre' }),
  verbal_post: Nullable(Type.String({ description: 'Spoken after it' })),
  traffic_factor: Type.Number({ description: 'Multiplier of free-flow time; 1 until learned (docs/adr/0031)' }),
  traffic_severity: Type.String({ description: 'free, moderate, heavy, severe; unknown until learned' }),
  traffic_color: Type.String(),
  traffic_source: Type.Union([Type.Literal('learned'), Type.Literal('prior')]),
  lanes: Type.Optional(Type.Array(Type.Object({ indications: Type.Array(Type.String()), valid: Type.Boolean() }), { description: 'OSRM lanes; only where turn:lanes is tagged' })),
  instruction_landmark: Type.Optional(Type.String({ description: 'With narration landmark or both' })),
  landmark_confidence: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'How well documented the landmark is, not how sure the match is' })),
  alternate_landmarks: Type.Optional(Type.Array(Type.String(), { description: 'Empty when there is no real ambiguity' })),
  landmark: Type.Optional(
    Nullable(
      Type.Object({ name: Type.String(), slug: Type.String(), kind: Type.String(), lat: Type.Number(), lng: Type.Number(), distance_m: Type.Number(), position: Type.Union([Type.Literal('before'), Type.Literal('at'), Type.Literal('after')], { description: 'Where it stands against the manoeuvre' }) }),
    ),
  ),
  leg: Type.Integer({ description: 'The leg the step belongs to (0 without via points)' }),
});

/** routes/detour.ts: why a route is poor, beside its warning (issue 50, docs/adr/0061). */
const DetourSchema = Type.Object(
  {
    reason: Type.Union([Type.Literal('closed_to_mode'), Type.Literal('sparse_network')], {
      description: '`closed_to_mode`: roads of the driving route are closed to this mode (named in `closed_roads`); `sparse_network`: the network here has no more direct road for it',
    }),
    distance_m: Type.Number(),
    straight_line_m: Type.Number({ description: 'Through the requested points, in order' }),
    driving_distance_m: Nullable(Type.Number({ description: 'The driving route between the same points, when it was computed as a comparison (non-driving modes longer than 2× the straight line)' })),
    closed_roads: Type.Array(
      Type.Object({
        road_ids: Type.Array(Type.String(), { description: 'Its ways (`osm:way/<id>`), in the order the driving route meets them' }),
        name: Nullable(Type.String()),
        ref: Nullable(Type.String()),
        highway: Type.String({ description: 'The road class' }),
        restriction: Type.String({ description: 'The tag that closes it to the mode: `highway=motorway`, `motorcycle=no`' }),
        distance_m: Type.Number({ description: 'How much of the driving route runs on it' }),
      }),
      { description: 'Roads (ways of one name, number and class together), longest first, at most 5' },
    ),
  },
  { description: 'Present when the route is longer than 2× the driving route between the same points or 3× the straight line (and at least 1 km longer than it); a `detour:` warning says the same in words' },
);

/** A route and each of its alternatives (routes/route-builder.ts, BuiltRoute). */
const routeFields = {
  distance_m: Type.Number(),
  duration_s: Type.Number(),
  geometry: Type.Object({ type: Type.Literal('LineString'), coordinates: Type.Array(LngLatSchema) }, { description: 'GeoJSON LineString' }),
  polyline: Type.String({ description: 'Encoded polyline, precision 5' }),
  summary: Type.String({ description: 'The main roads taken' }),
  steps: Type.Array(RouteStepSchema),
  legs: Type.Array(
    Type.Object({
      distance_m: Type.Number(),
      duration_s: Type.Number(),
      summary: Type.String(),
      snapped_from: Type.Object({ lat: Type.Number(), lng: Type.Number() }),
      snapped_to: Type.Object({ lat: Type.Number(), lng: Type.Number() }),
      snap_distance_from_m: Type.Optional(Type.Number({ description: 'How far the requested start was moved onto the road (docs/adr/0035)' })),
      snap_distance_to_m: Type.Optional(Type.Number()),
    }),
  ),
  recommended: Type.Boolean({ description: 'True when a non-fastest, safer route wins' }),
  recommend_reason: Nullable(Type.String()),
  flood_crossings: Type.Integer(),
  has_unpaved: Type.Optional(Type.Boolean({ description: 'Absent (unknown) when more than 20 % of the length has no known surface' })),
  unpaved_distance_m: Type.Number(),
  incident_count: Type.Integer(),
  warnings: Type.Array(Type.String(), { description: 'Snap distances past 100 m, hazards near the route, a poor route (`detour: …`), what the engine could not honour' }),
  detour: Type.Optional(DetourSchema),
  rain_note: Nullable(Type.String()),
  rain_eta_penalty_s: Type.Number(),
};

const RouteSchema = Type.Object(routeFields);

/** POST /v2/route (ADR 39). */
export const PlanRouteAnswerSchema = defineAnswer(
  'RouteAnswer',
  Type.Object({
    mode: ModeSchema,
    narration: Type.Union([Type.Literal('street'), Type.Literal('landmark'), Type.Literal('both')]),
    ...routeFields,
    alternatives: Type.Array(RouteSchema, { description: 'Up to 2, each with the same safer-route flags' }),
    engine: Type.String({ description: '`embedded` or `graphhopper`' }),
    datasets: Type.Array(Type.Object({ dataset: Type.String(), version: Type.String(), imported_at: Type.String({ format: 'date-time' }), attribution: Type.Array(Type.String()) })),
    attribution: Type.Array(Type.String()),
  }),
  {
    mode: 'driving',
    narration: 'landmark',
    distance_m: 1480.2,
    duration_s: 214.6,
    geometry: { type: 'LineString', coordinates: [[-0.2058, 5.5496], [-0.2031, 5.5512], [-0.1969, 5.5556]] },
    polyline: 'ax`a@pg}@_BuDsGsK',
    summary: 'Kojo Thompson Road, Kwame Nkrumah Avenue',
    steps: [
      {
        instruction: 'Head northeast on Kojo Thompson Road',
        name: 'Kojo Thompson Road',
        ref: null,
        distance_m: 390.4,
        duration_s: 58.1,
        coordinates: [[-0.2058, 5.5496], [-0.2031, 5.5512]],
        maneuver_point: [-0.2058, 5.5496],
        bearing_before: 0,
        bearing_after: 59,
        turn_angle: 0,
        turn_class: 'depart',
        surface: 'paved',
        surface_color: '#2E7D32',
        verbal_alert: 'Head northeast on Kojo Thompson Road',
        verbal_post: 'Continue for 400 metres',
        traffic_factor: 1,
        traffic_severity: 'unknown',
        traffic_color: '#9E9E9E',
        traffic_source: 'prior',
        leg: 0,
      },
      {
        instruction: 'Turn right onto Kwame Nkrumah Avenue after Makola Market',
        name: 'Kwame Nkrumah Avenue',
        ref: null,
        distance_m: 1089.8,
        duration_s: 156.5,
        coordinates: [[-0.2031, 5.5512], [-0.1969, 5.5556]],
        maneuver_point: [-0.2031, 5.5512],
        bearing_before: 59,
        bearing_after: 145,
        turn_angle: 86,
        turn_class: 'right',
        surface: 'paved',
        surface_color: '#2E7D32',
        verbal_alert: 'In 200 metres, turn right onto Kwame Nkrumah Avenue after Makola Market',
        verbal_post: null,
        traffic_factor: 1.32,
        traffic_severity: 'moderate',
        traffic_color: '#FFC107',
        traffic_source: 'learned',
        lanes: [{ indications: ['left', 'straight'], valid: false }, { indications: ['right'], valid: true }],
        instruction_landmark: 'Makola Market',
        landmark_confidence: 0.85,
        alternate_landmarks: [],
        landmark: { name: 'Makola Market', slug: 'makola-market', kind: 'market', lat: 5.5489, lng: -0.2101, distance_m: 38, position: 'after' },
        leg: 0,
      },
    ],
    legs: [
      {
        distance_m: 1480.2,
        duration_s: 214.6,
        summary: 'Kojo Thompson Road, Kwame Nkrumah Avenue',
        snapped_from: { lat: 5.5496, lng: -0.2058 },
        snapped_to: { lat: 5.5556, lng: -0.1969 },
        snap_distance_from_m: 6.2,
        snap_distance_to_m: 11.8,
      },
    ],
    recommended: false,
    recommend_reason: null,
    flood_crossings: 0,
    has_unpaved: false,
    unpaved_distance_m: 0,
    incident_count: 0,
    warnings: [],
    rain_note: null,
    rain_eta_penalty_s: 0,
    alternatives: [],
    engine: 'embedded',
    datasets: [{ dataset: 'roads/accra', version: '2026-11-01', imported_at: '2026-11-01T06:00:00.000Z', attribution: ATTRIBUTION_EXAMPLE }],
    attribution: ATTRIBUTION_EXAMPLE,
  },
);
