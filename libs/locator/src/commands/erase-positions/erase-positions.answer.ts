import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';

/** DELETE /v2/locator/data (ADR 39). */
export const ErasePositionsAnswerSchema = defineAnswer(
  'LocatorErasureAnswer',
  Type.Object({
    erased: Type.Literal(true),
    events_erased: Type.Integer({ minimum: 0, description: 'Check-ins deleted by this request (0 when a previous one already erased them)' }),
    erased_at: Type.String({ format: 'date-time' }),
  }),
  { erased: true, events_erased: 37, erased_at: '2026-11-27T09:20:41.006Z' },
);
