import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';

const Counts = {
  shops: Type.Integer(),
  markets: Type.Integer(),
  supermarkets: Type.Integer(),
  malls: Type.Integer(),
  mobile_money_agents: Type.Integer(),
};

/** GET /v2/analytics/retail-density: a GeoJSON FeatureCollection in `data`, one Polygon per hex with a place. */
export const RetailDensitySchema = defineAnswer(
  'RetailDensity',
  Type.Object({
    type: Type.Literal('FeatureCollection'),
    bbox: Type.Array(Type.Number(), { minItems: 4, maxItems: 4, description: '[west, south, east, north], GeoJSON order' }),
    resolution: Type.Integer({ description: 'H3 resolution of the hexes' }),
    totals: Type.Object(Counts, { description: 'Places per category in the box' }),
    features: Type.Array(
      Type.Object({
        type: Type.Literal('Feature'),
        geometry: Type.Object({ type: Type.Literal('Polygon'), coordinates: Type.Array(Type.Array(Type.Array(Type.Number())), { description: 'The hex boundary, [lng, lat]' }) }),
        properties: Type.Object({ hex_code: Type.String(), h3_cell: Type.String(), ...Counts, total: Type.Integer() }),
      }),
      { description: 'Most places first' },
    ),
    datasets: Type.Array(Type.Object({ dataset: Type.String(), version: Type.String(), imported_at: Type.String({ format: 'date-time' }) }), { description: 'The place datasets counted' }),
    attribution: Type.Array(Type.String(), { description: 'What the sources require wherever the data is shown' }),
  }),
  {
    type: 'FeatureCollection',
    bbox: [-0.25, 5.52, -0.15, 5.62],
    resolution: 8,
    totals: { shops: 41, markets: 2, supermarkets: 3, malls: 1, mobile_money_agents: 17 },
    features: [
      {
        type: 'Feature',
        geometry: {
          type: 'Polygon',
          coordinates: [[[-0.2101, 5.5489], [-0.2072, 5.5478], [-0.2068, 5.5447], [-0.2093, 5.5427], [-0.2122, 5.5438], [-0.2126, 5.5469], [-0.2101, 5.5489]]],
        },
        properties: { hex_code: 'GA4K7M', h3_cell: '88754e6499fffff', shops: 12, markets: 1, supermarkets: 0, malls: 0, mobile_money_agents: 6, total: 19 },
      },
    ],
    datasets: [{ dataset: 'places/osm', version: '2026-11-01', imported_at: '2026-11-01T06:00:00.000Z' }],
    attribution: ['© OpenStreetMap contributors, ODbL'],
  },
);
