import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';
import { ATTRIBUTION_EXAMPLE, ModeSchema } from '../answer-parts.js';

/** GET /v2/route/along (ADR 39). */
export const RouteAlongAnswerSchema = defineAnswer(
  'RouteAlongAnswer',
  Type.Object({
    length_m: Type.Number({ description: 'Length of the route the landmarks are listed along' }),
    mode: Type.Optional(ModeSchema),
    items: Type.Array(
      Type.Object({
        slug: Type.String(),
        name: Type.String(),
        kind: Type.String(),
        lat: Type.Number(),
        lng: Type.Number(),
        distance_along_m: Type.Number({ description: 'From the start along the route to the point abreast of the landmark' }),
        offset_m: Type.Number({ description: 'From the route line' }),
        side: Type.Union([Type.Literal('left'), Type.Literal('right'), Type.Literal('on')], { description: 'For the direction of travel; `on` within 5 m of the line' }),
        landmark_confidence: Type.Number({ minimum: 0, maximum: 1 }),
      }),
    ),
    truncated: Type.Boolean({ description: 'More landmarks lie along the route than `limit`' }),
    attribution: Type.Array(Type.String()),
  }),
  {
    length_m: 1480.2,
    mode: 'driving',
    items: [
      { slug: 'makola-market', name: 'Makola Market', kind: 'market', lat: 5.5489, lng: -0.2101, distance_along_m: 388, offset_m: 31.5, side: 'right', landmark_confidence: 0.85 },
      { slug: 'accra-central-post-office', name: 'Accra Central Post Office', kind: 'post_office', lat: 5.5527, lng: -0.2012, distance_along_m: 812, offset_m: 18.2, side: 'left', landmark_confidence: 0.7 },
    ],
    truncated: false,
    attribution: ATTRIBUTION_EXAMPLE,
  },
);
