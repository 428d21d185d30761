import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';
import { ROAD_CLASSES } from '../../domain/learned-traffic.js';

const SourceSchema = Type.Union([Type.Literal('learned'), Type.Literal('prior')], { description: 'learned: from samples (docs/adr/0031); prior: nothing measured' });

/** GET /v2/route/traffic (ADR 39). */
export const RoadTrafficAnswerSchema = defineAnswer(
  'RoadTrafficAnswer',
  Type.Object({
    at: Type.String({ format: 'date-time' }),
    hour: Type.Integer({ description: 'The hour-of-day bucket the figures are for' }),
    learned_samples: Type.Integer({ description: 'Samples at this hour, over every cell (learned or still on the prior)' }),
    learned_cells: Type.Integer({ description: 'Cells whose figure at this hour is learned' }),
    pending_cells: Type.Integer({ description: 'Cells with samples at this hour, not yet enough to be learned' }),
    model: Type.Object({
      prior: Type.Number(),
      prior_source: Type.Literal('static_speed_profile'),
      prior_weight: Type.Number(),
      min_samples: Type.Integer(),
      min_reporters: Type.Integer(),
      reporter_weight_cap: Type.Integer(),
    }),
    classes: Type.Array(
      Type.Object({
        road_class: Type.Union(ROAD_CLASSES.map((roadClass) => Type.Literal(roadClass))),
        multiplier: Type.Number({ description: 'Of free-flow time' }),
        source: SourceSchema,
        prior: Type.Number(),
        prior_source: Type.Literal('static_speed_profile'),
        severity: Type.String({ description: 'free, moderate, heavy, severe; unknown without data' }),
        color: Type.String(),
      }),
    ),
  }),
  {
    at: '2026-11-27T07:30:00.000Z',
    hour: 7,
    learned_samples: 48,
    learned_cells: 3,
    pending_cells: 5,
    model: { prior: 1, prior_source: 'static_speed_profile', prior_weight: 5, min_samples: 5, min_reporters: 3, reporter_weight_cap: 2 },
    classes: [
      { road_class: 'motorway', multiplier: 1.42, source: 'learned', prior: 1, prior_source: 'static_speed_profile', severity: 'heavy', color: '#FF5722' },
      { road_class: 'primary', multiplier: 1.42, source: 'learned', prior: 1, prior_source: 'static_speed_profile', severity: 'heavy', color: '#FF5722' },
      { road_class: 'secondary', multiplier: 1.42, source: 'learned', prior: 1, prior_source: 'static_speed_profile', severity: 'heavy', color: '#FF5722' },
      { road_class: 'residential', multiplier: 1.42, source: 'learned', prior: 1, prior_source: 'static_speed_profile', severity: 'heavy', color: '#FF5722' },
    ],
  },
);
