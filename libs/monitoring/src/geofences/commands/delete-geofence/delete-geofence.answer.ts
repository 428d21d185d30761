import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../../platform/src/index.js';

/** DELETE /v2/geofences/{id} (ADR 39). */
export const GeofenceDeletedSchema = defineAnswer(
  'GeofenceDeleted',
  Type.Object({ id: Type.String(), deleted: Type.Literal(true), deleted_at: Type.String({ format: 'date-time' }) }),
  { id: 'gf_6d1f0b9e2c8a4f7d9b3e5a1c7f2d4b8e', deleted: true, deleted_at: '2026-12-01T12:00:00.000Z' },
);
