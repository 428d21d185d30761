import { Type } from '@sinclair/typebox';
import { defineAnswer, Nullable } from '../../../../../platform/src/index.js';
import { geofenceExample, GeofenceSchema } from '../../http/geofence-answer.js';

/** GET /v2/geofences (ADR 39). */
export const GeofencePageSchema = defineAnswer(
  'GeofencePage',
  Type.Object({ items: Type.Array(GeofenceSchema), next_cursor: Nullable(Type.String({ description: 'Pass back as `cursor`; null on the last page' })) }),
  { items: [geofenceExample], next_cursor: null },
);
