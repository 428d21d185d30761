import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';
import { ATTRIBUTION_EXAMPLE, LngLatSchema } from '../answer-parts.js';

/**
 * POST /v2/navigate/route: the OSRM / Mapbox Directions v5 document as
 * navigation SDKs read it (ADR 39). Its property names are that format's
 * (camelCase where it has them), not ours: the SDKs parse it as it is.
 */
const GeometrySchema = Type.Union([Type.String({ description: 'Encoded polyline (precision 6 for polyline6, 5 for polyline)' }), Type.Object({ type: Type.Literal('LineString'), coordinates: Type.Array(LngLatSchema) })], {
  description: 'As `geometries` asked: polyline6 (default), polyline or geojson',
});

const ManeuverSchema = Type.Object({
  type: Type.String({ description: 'depart, turn, new name, continue, roundabout, arrive' }),
  modifier: Type.Optional(Type.String({ description: 'straight, slight left, left, sharp left, uturn, …' })),
  exit: Type.Optional(Type.Integer({ description: 'Roundabouts: the exit to take' })),
  location: LngLatSchema,
  bearing_before: Type.Number(),
  bearing_after: Type.Number(),
  instruction: Type.String(),
});

const LaneSchema = Type.Object({ indications: Type.Array(Type.String()), valid: Type.Boolean() });

const BannerComponentSchema = Type.Object({
  text: Type.String(),
  type: Type.String({ description: '`text`, or `lane` in `sub`' }),
  directions: Type.Optional(Type.Array(Type.String())),
  active: Type.Optional(Type.Boolean()),
});

const StepSchema = Type.Object({
  distance: Type.Number({ description: 'Metres' }),
  duration: Type.Number({ description: 'Seconds' }),
  weight: Type.Number(),
  name: Type.String(),
  ref: Type.Optional(Type.String()),
  mode: Type.String({ description: 'driving, cycling or walking' }),
  driving_side: Type.String(),
  geometry: GeometrySchema,
  maneuver: ManeuverSchema,
  intersections: Type.Array(
    Type.Object({
      location: LngLatSchema,
      bearings: Type.Array(Type.Number()),
      entry: Type.Array(Type.Boolean()),
      in: Type.Optional(Type.Integer()),
      out: Type.Integer(),
      lanes: Type.Optional(Type.Array(LaneSchema)),
    }),
  ),
  voiceInstructions: Type.Array(Type.Object({ distanceAlongGeometry: Type.Number(), announcement: Type.String(), ssmlAnnouncement: Type.String() })),
  bannerInstructions: Type.Array(
    Type.Object({
      distanceAlongGeometry: Type.Number(),
      primary: Type.Object({
        text: Type.String(),
        components: Type.Array(BannerComponentSchema),
        type: Type.String(),
        modifier: Type.Optional(Type.String()),
        degrees: Type.Optional(Type.Number()),
        driving_side: Type.Optional(Type.String()),
      }),
      secondary: Type.Null(),
      sub: Type.Optional(Type.Object({ text: Type.String(), components: Type.Array(BannerComponentSchema) })),
    }),
  ),
});

const RouteSchema = Type.Object({
  distance: Type.Number(),
  duration: Type.Number(),
  weight: Type.Number(),
  weight_name: Type.String(),
  geometry: GeometrySchema,
  legs: Type.Array(Type.Object({ distance: Type.Number(), duration: Type.Number(), weight: Type.Number(), summary: Type.String(), steps: Type.Array(StepSchema) })),
  voiceLocale: Type.String(),
});

export const NavigateRouteAnswerSchema = defineAnswer(
  'NavigationFeed',
  Type.Object({
    code: Type.String({ description: '`Ok` (errors use the envelope instead)' }),
    routes: Type.Array(RouteSchema, { description: 'The route first, then its alternatives' }),
    waypoints: Type.Array(Type.Object({ name: Type.String(), location: Type.Array(Type.Number(), { minItems: 2, maxItems: 2, description: '[lng, lat] snapped onto the road' }) })),
    voiceLocale: Type.String(),
    attribution: Type.Array(Type.String()),
  }),
  {
    code: 'Ok',
    routes: [
      {
        distance: 390.4,
        duration: 58.1,
        weight: 58.1,
        weight_name: 'duration',
        geometry: 'ck`sIpx}K_|@y~A',
        legs: [
          {
            distance: 390.4,
            duration: 58.1,
            weight: 58.1,
            summary: 'Kojo Thompson Road',
            steps: [
              {
                distance: 390.4,
                duration: 58.1,
                weight: 58.1,
                name: 'Kojo Thompson Road',
                mode: 'driving',
                driving_side: 'right',
                geometry: 'ck`sIpx}K_|@y~A',
                maneuver: { type: 'depart', location: [-0.2058, 5.5496], bearing_before: 0, bearing_after: 59, instruction: 'Head northeast on Kojo Thompson Road' },
                intersections: [{ location: [-0.2058, 5.5496], bearings: [59], entry: [true], out: 0 }],
                voiceInstructions: [
                  {
                    distanceAlongGeometry: 390.4,
                    announcement: 'Head northeast on Kojo Thompson Road, then you have reached your stop',
                    ssmlAnnouncement: '<speak><amazon:effect name="drc"><prosody rate="1.08">Head northeast on Kojo Thompson Road, then you have reached your stop</prosody></amazon:effect></speak>',
                  },
                ],
                bannerInstructions: [{ distanceAlongGeometry: 390.4, primary: { text: 'Kojo Thompson Road', components: [{ text: 'Kojo Thompson Road', type: 'text' }], type: 'arrive' }, secondary: null }],
              },
            ],
          },
        ],
        voiceLocale: 'en',
      },
    ],
    waypoints: [
      { name: 'Kojo Thompson Road', location: [-0.2058, 5.5496] },
      { name: 'Kojo Thompson Road', location: [-0.2031, 5.5512] },
    ],
    voiceLocale: 'en',
    attribution: ATTRIBUTION_EXAMPLE,
  },
);
