import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';

/** GET /v2/admin/traffic/accuracy (TrafficAccuracy). */
export const TrafficAccuracySchema = defineAnswer(
  'TrafficAccuracy',
  Type.Object({
    window_days: Type.Integer(),
    samples: Type.Integer({ description: 'Trips evaluated in the window' }),
    static_mape: Type.Union([Type.Number(), Type.Null()], { description: 'Mean absolute percentage error of the static model; null without samples' }),
    learned_mape: Type.Union([Type.Number(), Type.Null()], { description: 'The same for the learned model, each sample predicted with what was learned before it' }),
    learned_wins: Type.Boolean({ description: 'The learned MAPE is lower' }),
    samples_total: Type.Integer({ description: 'Samples learned from, all time' }),
    arrival_error: Type.Object({ cells: Type.Integer(), arrivals: Type.Integer(), mean_m: Type.Union([Type.Number(), Type.Null()]) }, { description: 'How far arrivals landed from the destination' }),
  }),
  { window_days: 14, samples: 1842, static_mape: 31.4, learned_mape: 18.9, learned_wins: true, samples_total: 52310, arrival_error: { cells: 412, arrivals: 3120, mean_m: 38.5 } },
);
