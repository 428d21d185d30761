import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';
import { INCIDENT_EXAMPLE, incidentFields } from '../../queries/answer-parts.js';

/** POST /v2/route/incidents: the incident the report joined, or opened (ADR 39). */
export const ReportIncidentAnswerSchema = defineAnswer('IncidentAnswer', Type.Object(incidentFields), INCIDENT_EXAMPLE);
