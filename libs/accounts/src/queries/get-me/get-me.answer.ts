import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';
import { OrNull, TierSchema, UsageFields } from '../../answer-parts.js';

/** GET /v2/me (MeView; decisions.md, "Operator interface"). */
export const MeAnswerSchema = defineAnswer(
  'MeAnswer',
  Type.Object({
    account_id: OrNull(Type.String({ description: 'Null for a legacy key' })),
    key_prefix: Type.String(),
    name: Type.String(),
    email: OrNull(Type.String()),
    tier: TierSchema,
    daily_limit: Type.Integer(),
    created_at: Type.String({ format: 'date-time', description: 'When the calling key was issued' }),
    expires_at: OrNull(Type.String({ format: 'date-time', description: 'Personal tokens expire; keys do not (null)' })),
    usage: Type.Object(UsageFields),
  }),
  {
    account_id: 'acct_7f3a9c2e41b8d05f6a1c',
    key_prefix: '3f9c2a7b…',
    name: 'Kumasi Microcredit Ltd',
    email: 'ops@kumasi-microcredit.example.com.gh',
    tier: 'basic',
    daily_limit: 5000,
    created_at: '2026-03-14T09:21:06.000Z',
    expires_at: null,
    usage: { window: 'rolling_24h', daily_limit: 5000, used: 1243, remaining: 3757, reset_at: '2026-11-28T06:12:44.000Z' },
  },
);
