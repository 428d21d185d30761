import { Type } from '@sinclair/typebox';
import { defineAnswer, Nullable } from '../../../../platform/src/index.js';

const AlertFeatureSchema = Type.Object({
  type: Type.Literal('Feature'),
  id: Type.String({ description: 'The CAP identifier' }),
  geometry: Nullable(
    Type.Object(
      { type: Type.Literal('MultiPolygon'), coordinates: Type.Array(Type.Array(Type.Array(Type.Array(Type.Number(), { minItems: 2, maxItems: 2 })))) },
      { description: 'The areas of the alert (circles as 32-point polygons); null when none has a geometry' },
    ),
  ),
  properties: Type.Object({
    identifier: Type.String(),
    sender: Type.String(),
    sent: Type.String({ description: 'As the CAP message gives it (ISO 8601 with offset)' }),
    event: Type.String(),
    severity: Type.String({ description: 'CAP: Extreme, Severe, Moderate, Minor, Unknown' }),
    urgency: Type.String({ description: 'CAP: Immediate, Expected, Future, Past, Unknown' }),
    certainty: Type.String({ description: 'CAP: Observed, Likely, Possible, Unlikely, Unknown' }),
    headline: Nullable(Type.String()),
    instruction: Nullable(Type.String()),
    effective: Nullable(Type.String()),
    expires: Nullable(Type.String()),
    areas: Type.Array(Type.String(), { description: 'The area descriptions' }),
    signature: Type.Union([Type.Literal('unsigned'), Type.Literal('valid'), Type.Literal('unverifiable')], { description: 'The XML signature: none, verified, or outside the profile we verify' }),
  }),
});

/** GET /v2/weather/alerts: a GeoJSON FeatureCollection in `data` (ADR 39). */
export const GetAlertsAnswerSchema = defineAnswer(
  'WeatherAlertsAnswer',
  Type.Object({
    type: Type.Literal('FeatureCollection'),
    features: Type.Array(AlertFeatureSchema),
    configured: Type.Boolean({ description: 'Whether a CAP feed is polled (WEATHER_CAP_FEEDS): without one, an empty list does not mean "no alerts"' }),
    feeds: Type.Array(
      Type.Object({
        feed: Type.String({ description: 'Origin and path of the feed polled' }),
        last_attempt_at: Nullable(Type.String({ format: 'date-time' })),
        last_success_at: Nullable(Type.String({ format: 'date-time' })),
        last_error: Nullable(Type.String()),
      }),
    ),
    imported: Type.Boolean({ description: 'Whether any alert was ever recorded (polled, or imported with ops weather:import)' }),
    note: Type.Optional(Type.String({ description: 'When no feed is polled: what an empty list means' })),
    warnings: Type.Optional(Type.Array(Type.String(), { description: 'A bbox read in the deprecated minLng,minLat,maxLng,maxLat order' })),
  }),
  {
    type: 'FeatureCollection',
    features: [
      {
        type: 'Feature',
        id: 'GMet-2026-11-27-0412',
        geometry: { type: 'MultiPolygon', coordinates: [[[[-0.35, 5.5], [-0.05, 5.5], [-0.05, 5.75], [-0.35, 5.75], [-0.35, 5.5]]]] },
        properties: {
          identifier: 'GMet-2026-11-27-0412',
          sender: 'forecast@meteo.gov.gh',
          sent: '2026-11-27T06:00:00+00:00',
          event: 'Heavy Rainfall',
          severity: 'Severe',
          urgency: 'Expected',
          certainty: 'Likely',
          headline: 'Heavy rainfall warning for Greater Accra',
          instruction: 'Avoid low-lying areas and drains; do not cross flooded roads.',
          effective: '2026-11-27T06:00:00+00:00',
          expires: '2026-11-27T18:00:00+00:00',
          areas: ['Greater Accra'],
          signature: 'unsigned',
        },
      },
    ],
    configured: true,
    feeds: [{ feed: 'https://meteo.gov.gh/cap/rss.xml', last_attempt_at: '2026-11-27T07:00:00.000Z', last_success_at: '2026-11-27T07:00:00.000Z', last_error: null }],
    imported: true,
  },
);
