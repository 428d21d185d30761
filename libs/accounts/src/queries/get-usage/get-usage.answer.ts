import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';
import { TierSchema, UsageFields } from '../../answer-parts.js';

/** GET /v2/usage. */
export const UsageAnswerSchema = defineAnswer(
  'UsageAnswer',
  Type.Object({ tier: TierSchema, ...UsageFields }),
  { tier: 'basic', window: 'rolling_24h', daily_limit: 5000, used: 1243, remaining: 3757, reset_at: '2026-11-28T06:12:44.000Z' },
);
