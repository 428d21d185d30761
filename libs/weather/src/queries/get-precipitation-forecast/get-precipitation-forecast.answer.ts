import { Type } from '@sinclair/typebox';
import { defineAnswer, Nullable } from '../../../../platform/src/index.js';

/** GET /v2/precipitation-forecast: a GeoJSON point cloud in `data` (ADR 39). */
export const GetPrecipitationForecastAnswerSchema = defineAnswer(
  'PrecipitationForecastAnswer',
  Type.Object({
    type: Type.Literal('FeatureCollection'),
    features: Type.Array(
      Type.Object({
        type: Type.Literal('Feature'),
        geometry: Type.Object({ type: Type.Literal('Point'), coordinates: Type.Array(Type.Number(), { minItems: 2, maxItems: 2, description: '[lng, lat]' }) }),
        properties: Type.Object({
          max_probability_pct: Nullable(Type.Number({ minimum: 0, maximum: 100, description: 'Highest hourly chance of rain over the hours; null when the provider gave none' })),
          expected_mm: Nullable(Type.Number({ description: 'The hourly amounts summed' })),
          hours: Type.Integer({ description: 'Hours the provider answered for this point' }),
        }),
      }),
      { description: 'Ordered by probability, highest first' },
    ),
    hours: Type.Integer({ description: 'The horizon asked, in hours' }),
    provider: Type.String(),
    warnings: Type.Optional(Type.Array(Type.String(), { description: 'A bbox read in the deprecated minLng,minLat,maxLng,maxLat order' })),
  }),
  {
    type: 'FeatureCollection',
    features: [
      { type: 'Feature', geometry: { type: 'Point', coordinates: [-0.187, 5.6037] }, properties: { max_probability_pct: 80, expected_mm: 12.4, hours: 6 } },
      { type: 'Feature', geometry: { type: 'Point', coordinates: [-0.2174, 5.5502] }, properties: { max_probability_pct: 65, expected_mm: 6.1, hours: 6 } },
    ],
    hours: 6,
    provider: 'open-meteo',
  },
);
