import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';
import { TierSchema } from '../../answer-parts.js';

/** The consumption fields GET /v2/usage answers and GET /v2/me repeats under `usage` (Usage). */
export const UsageFields = {
  window: Type.Literal('rolling_24h', { description: 'Requests are counted over the last 24 hours, not per calendar day' }),
  daily_limit: Type.Integer({ description: 'Requests the key may make in the window' }),
  used: Type.Integer({ description: 'Requests counted in the window, this one included' }),
  remaining: Type.Integer(),
  reset_at: Type.String({ format: 'date-time', description: 'When the oldest counted request leaves the window and frees capacity' }),
};

/** GET /v2/usage. */
export const UsageAnswerSchema = defineAnswer(
  'UsageAnswer',
  Type.Object({ tier: TierSchema, ...UsageFields }),
  { tier: 'basic', window: 'rolling_24h', daily_limit: 5000, used: 1243, remaining: 3757, reset_at: '2026-11-28T06:12:44.000Z' },
);
