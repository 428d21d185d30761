import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';

/** GET /v2/analytics/traffic-heatmap (ADR 39; docs/adr/0031). */
export const TrafficHeatmapSchema = defineAnswer(
  'TrafficHeatmap',
  Type.Object({
    cells: Type.Array(
      Type.Object({
        cell: Type.String({ description: 'H3 resolution-8 cell' }),
        lat: Type.Number(),
        lng: Type.Number(),
        hour: Type.Integer({ minimum: 0, maximum: 23, description: 'Hour of day, Africa/Accra (UTC)' }),
        factor: Type.Number({ description: 'Travel-time multiplier the router uses; 1 for a prior' }),
        source: Type.Union([Type.Literal('learned'), Type.Literal('prior')], { description: '`learned` once the cell-hour passed the gate (5 samples, 3 distinct reporters)' }),
        samples: Type.Integer(),
        reporters: Type.Integer({ description: 'Distinct reporters behind the samples' }),
        severity: Type.String({ description: 'free, moderate, heavy, severe; `unknown` for a prior' }),
        color: Type.String({ description: 'Hex colour for the severity' }),
      }),
    ),
    count: Type.Integer(),
  }),
  {
    cells: [{ cell: '88754e6499fffff', lat: 5.5571, lng: -0.2012, hour: 8, factor: 1.42, source: 'learned', samples: 12, reporters: 5, severity: 'heavy', color: '#e8590c' }],
    count: 1,
  },
);
