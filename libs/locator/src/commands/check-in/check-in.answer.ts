import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';
import { positionFields } from '../../answer-parts.js';

/** POST /v2/locator/checkin: the position as stored (ADR 39). */
export const CheckInAnswerSchema = defineAnswer('LocatorCheckInAnswer', Type.Object(positionFields), {
  lat: 5.6037,
  lng: -0.187,
  accuracy_m: 12,
  checked_in_at: '2026-11-27T09:14:03.512Z',
});
