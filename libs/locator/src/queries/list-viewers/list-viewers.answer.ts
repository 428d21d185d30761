import { Type } from '@sinclair/typebox';
import { defineAnswer, Nullable } from '../../../../platform/src/index.js';
import { SHARE_ID_EXAMPLE } from '../../answer-parts.js';

/** GET /v2/locator/viewers (ADR 39). */
export const ListViewersAnswerSchema = defineAnswer(
  'LocatorViewersAnswer',
  Type.Object({
    items: Type.Array(
      Type.Object({
        pairing_id: Type.String({ description: 'For DELETE /v2/locator/viewers/{pairingId}' }),
        viewer_id: Nullable(Type.String()),
        viewer_name: Nullable(Type.String()),
        label: Nullable(Type.String({ description: 'Your note on the code this pairing came from' })),
        paired_at: Nullable(Type.String({ format: 'date-time' })),
        expires_at: Nullable(Type.String({ format: 'date-time', description: 'null: until revoked' })),
      }),
    ),
    pending_codes: Type.Array(
      Type.Object({
        share_id: Type.String({ description: 'For DELETE /v2/locator/share-token/{shareId}; the code itself is never shown again' }),
        label: Nullable(Type.String()),
        issued_at: Type.String({ format: 'date-time' }),
        expires_at: Type.String({ format: 'date-time' }),
        share_for_s: Nullable(Type.Integer()),
      }),
    ),
  }),
  {
    items: [
      { pairing_id: SHARE_ID_EXAMPLE, viewer_id: 'acct_7b21d0c4e9f3a85b6c12', viewer_name: 'Kofi Boateng', label: 'Kofi', paired_at: '2026-11-27T09:16:22.140Z', expires_at: null },
    ],
    pending_codes: [{ share_id: 'shr_9a1c4e7b2d5f8a0c3e6b9d2f5a8c1e4b', label: 'Mum', issued_at: '2026-11-27T09:14:00.000Z', expires_at: '2026-11-27T09:24:00.000Z', share_for_s: 86400 }],
  },
);
