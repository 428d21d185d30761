import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../platform/src/index.js';
import { OrNull, TierSchema } from './answer-parts.js';

/**
 * interface.md, "API key record (returned by signup)": POST /v2/self/signup,
 * POST /v2/me/rotate and POST /v2/admin/keys answer it (key-record.view.ts).
 */
export const ApiKeyRecordSchema = defineAnswer(
  'ApiKeyRecord',
  Type.Object({
    id: Type.Integer({ description: 'Record identifier' }),
    name: Type.String(),
    email: OrNull(Type.String({ description: 'The address the key was issued to; null for a legacy key issued by the operator' })),
    key: Type.String({ description: 'The full key (hex), shown exactly once: send it as X-API-Key' }),
    key_prefix: Type.String({ description: 'The first characters of the key and an ellipsis, how the key is named later' }),
    tier: TierSchema,
    daily_limit: Type.Integer({ description: 'Requests per rolling 24 h' }),
    expires_at: OrNull(Type.String({ format: 'date-time', description: 'Null for a key that does not expire (signup and legacy keys)' })),
    note: Type.String({ description: 'A reminder that the key is not shown again' }),
  }),
  {
    id: 4182,
    name: 'Ama Mensah',
    email: 'ama.mensah@example.com.gh',
    key: '3f9c2a7be4d1058c6a2f9e7d3b1c4a5e8f0d2b6c9a1e3f5d7b9c0a2e4f6d8b1c',
    key_prefix: '3f9c2a7b…',
    tier: 'free',
    daily_limit: 100,
    expires_at: null,
    note: 'Store this key now: it is shown only once and cannot be recovered.',
  },
);
