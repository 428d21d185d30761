import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';
import { SHARE_ID_EXAMPLE } from '../../answer-parts.js';

/** DELETE /v2/locator/share-token/{shareId} (ADR 39). */
export const CancelShareCodeAnswerSchema = defineAnswer(
  'LocatorShareCodeCancelledAnswer',
  Type.Object({ share_id: Type.String(), cancelled: Type.Literal(true), cancelled_at: Type.String({ format: 'date-time' }) }),
  { share_id: SHARE_ID_EXAMPLE, cancelled: true, cancelled_at: '2026-11-27T09:18:05.731Z' },
);
