import { Type } from '@sinclair/typebox';
import { Nullable } from '../../../platform/src/index.js';
import { HAZARD_KINDS } from '../domain/hazard.js';

/** Schema parts the traffic answers share (ADR 39). */

/** One live incident: the reports of one kind within 150 m, merged (domain/hazard.ts). */
export const incidentFields = {
  id: Type.String(),
  kind: Type.Union(HAZARD_KINDS.map((kind) => Type.Literal(kind))),
  lat: Type.Number(),
  lng: Type.Number(),
  note: Nullable(Type.String({ description: "The latest reporter's note" })),
  corroborations: Type.Integer({ minimum: 1, description: 'Distinct reporters (client IP and account of a valid key, one reporter when they overlap)' }),
  first_reported_at: Type.String({ format: 'date-time' }),
  last_reported_at: Type.String({ format: 'date-time' }),
  expires_at: Type.String({ format: 'date-time', description: 'Restarted by each new reporter; police 2 h, accident 3 h, flooding 12 h, road_blocked 24 h' }),
};

export const INCIDENT_EXAMPLE = {
  id: '3f1b9c0e7a2d4b6f8e5c1a9d7b3e2f40',
  kind: 'flooding' as const,
  lat: 5.5713,
  lng: -0.2127,
  note: 'Water over the road at Kaneshie first light',
  corroborations: 2,
  first_reported_at: '2026-11-27T06:41:12.000Z',
  last_reported_at: '2026-11-27T07:05:48.000Z',
  expires_at: '2026-11-27T19:05:48.000Z',
};
