import { defineAnswer } from '../../../../../platform/src/index.js';
import { geofenceExample, GeofenceSchema } from '../../http/geofence-answer.js';

/** POST /v2/geofence/create and GET /v2/geofences/{id} (ADR 39). */
export const GeofenceAnswerSchema = defineAnswer('Geofence', GeofenceSchema, geofenceExample);
