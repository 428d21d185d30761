import { Type } from '@sinclair/typebox';
import { defineAnswer, Nullable } from '../../../../platform/src/index.js';
import { SHARE_ID_EXAMPLE } from '../../answer-parts.js';

/** POST /v2/locator/share-token (ADR 39). */
export const IssueShareCodeAnswerSchema = defineAnswer(
  'LocatorShareCodeAnswer',
  Type.Object({
    share_id: Type.String({ description: 'Names the code (DELETE /v2/locator/share-token/{shareId}); becomes the pairing id once redeemed' }),
    code: Type.String({ description: 'Shown this once (`XXXX-XXXX-XXXX`, Crockford base 32): only its keyed digest is stored' }),
    expires_at: Type.String({ format: 'date-time', description: 'The code must be redeemed before this' }),
    ttl_s: Type.Integer({ description: 'How long the code lives, in seconds' }),
    share_for_s: Nullable(Type.Integer({ description: 'How long the pairing lasts once redeemed; null: until revoked' })),
    label: Nullable(Type.String()),
  }),
  { share_id: SHARE_ID_EXAMPLE, code: '7QK4-M2XD-9HRT', expires_at: '2026-11-27T09:24:00.000Z', ttl_s: 600, share_for_s: 86400, label: 'Mum' },
);
