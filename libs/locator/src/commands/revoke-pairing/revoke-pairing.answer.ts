import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';
import { SHARE_ID_EXAMPLE } from '../../answer-parts.js';

/** DELETE /v2/locator/viewers/{pairingId} and DELETE /v2/locator/watching/{pairingId} (ADR 39). */
export const RevokePairingAnswerSchema = defineAnswer(
  'LocatorPairingRevokedAnswer',
  Type.Object({ pairing_id: Type.String(), revoked: Type.Literal(true), revoked_at: Type.String({ format: 'date-time' }) }),
  { pairing_id: SHARE_ID_EXAMPLE, revoked: true, revoked_at: '2026-11-27T10:02:47.318Z' },
);
