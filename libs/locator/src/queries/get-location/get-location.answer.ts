import { Type } from '@sinclair/typebox';
import { defineAnswer, Nullable } from '../../../../platform/src/index.js';
import { ACCOUNT_ID_EXAMPLE, positionFields, SHARE_ID_EXAMPLE } from '../../answer-parts.js';

/** GET /v2/locator/{targetId}/location (ADR 39). */
export const GetLocationAnswerSchema = defineAnswer(
  'LocatorLocationAnswer',
  Type.Object({
    target_id: Type.String(),
    pairing_id: Nullable(Type.String({ description: 'The pairing that lets you see the target; null when the target is you' })),
    pairing_expires_at: Nullable(Type.String({ format: 'date-time', description: 'When that pairing ends; null: until revoked' })),
    position: Nullable(
      Type.Object(
        { ...positionFields, age_s: Type.Integer({ minimum: 0, description: 'Seconds since the check-in' }) },
        { description: 'The latest check-in; null before the first one or after the target erased their data' },
      ),
    ),
  }),
  {
    target_id: ACCOUNT_ID_EXAMPLE,
    pairing_id: SHARE_ID_EXAMPLE,
    pairing_expires_at: '2026-11-28T09:16:22.140Z',
    position: { lat: 6.6885, lng: -1.6244, accuracy_m: 15, checked_in_at: '2026-11-27T09:41:10.004Z', age_s: 42 },
  },
);
