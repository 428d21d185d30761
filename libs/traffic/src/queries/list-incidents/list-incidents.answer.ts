import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';
import { INCIDENT_EXAMPLE, incidentFields } from '../answer-parts.js';

/** GET /v2/route/incidents (ADR 39). */
export const ListIncidentsAnswerSchema = defineAnswer(
  'IncidentsAnswer',
  Type.Object({
    incidents: Type.Array(
      Type.Object({
        ...incidentFields,
        blocks_routes: Type.Boolean({ description: 'Routes with `avoid_incidents` go around it (flooding or road_blocked, 2 or more reporters)' }),
      }),
    ),
    count: Type.Integer(),
  }),
  { incidents: [{ ...INCIDENT_EXAMPLE, blocks_routes: true }], count: 1 },
);
