import { Type } from '@sinclair/typebox';
import { defineAnswer, Nullable } from '../../../../platform/src/index.js';
import { ACCOUNT_ID_EXAMPLE, SHARE_ID_EXAMPLE } from '../../answer-parts.js';

/** POST /v2/locator/redeem (ADR 39). */
export const RedeemShareCodeAnswerSchema = defineAnswer(
  'LocatorRedemptionAnswer',
  Type.Object({
    pairing_id: Type.String({ description: 'The share id of the code redeemed' }),
    target_id: Type.String({ description: 'What GET /v2/locator/{targetId}/location takes' }),
    target_name: Nullable(Type.String({ description: 'The name on the sharing account, where it has one' })),
    paired_at: Type.String({ format: 'date-time' }),
    expires_at: Nullable(Type.String({ format: 'date-time', description: 'When the pairing ends; null: until revoked' })),
  }),
  { pairing_id: SHARE_ID_EXAMPLE, target_id: ACCOUNT_ID_EXAMPLE, target_name: 'Ama Mensah', paired_at: '2026-11-27T09:16:22.140Z', expires_at: '2026-11-28T09:16:22.140Z' },
);
