import { Type } from '@sinclair/typebox';
import { defineAnswer, Nullable } from '../../../../platform/src/index.js';
import { ACCOUNT_ID_EXAMPLE, SHARE_ID_EXAMPLE } from '../../answer-parts.js';

/** GET /v2/locator/watching (ADR 39). */
export const ListWatchingAnswerSchema = defineAnswer(
  'LocatorWatchingAnswer',
  Type.Object({
    items: Type.Array(
      Type.Object({
        pairing_id: Type.String({ description: 'For DELETE /v2/locator/watching/{pairingId}' }),
        target_id: Type.String({ description: 'For GET /v2/locator/{targetId}/location' }),
        target_name: Nullable(Type.String()),
        paired_at: Nullable(Type.String({ format: 'date-time' })),
        expires_at: Nullable(Type.String({ format: 'date-time', description: 'null: until revoked' })),
      }),
    ),
  }),
  { items: [{ pairing_id: SHARE_ID_EXAMPLE, target_id: ACCOUNT_ID_EXAMPLE, target_name: 'Ama Mensah', paired_at: '2026-11-27T09:16:22.140Z', expires_at: '2026-11-28T09:16:22.140Z' }] },
);
