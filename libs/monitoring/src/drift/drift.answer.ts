import { Type } from '@sinclair/typebox';
import { defineAnswer, Nullable } from '../../../platform/src/index.js';

/** GET /v2/monitoring/drift and PUT /v2/monitoring/zones/{customer_id} (ADR 39). */
export const DriftStateSchema = defineAnswer(
  'DriftState',
  Type.Object({
    customer_id: Type.String(),
    status: Type.Union([Type.Literal('unmonitored'), Type.Literal('in_zone'), Type.Literal('drifting')], {
      description: '`unmonitored`: no zone registered (or erased); `drifting`: out of the zone since `since`',
    }),
    home_hex: Nullable(Type.String({ description: 'The zone’s centre cell' })),
    tolerance_hops: Nullable(Type.Integer()),
    current_hex: Nullable(Type.String({ description: 'The newest ping (by recorded_at) at the zone’s resolution' })),
    distance_hops: Nullable(Type.Integer()),
    since: Nullable(Type.String({ format: 'date-time' })),
    last_ping_at: Nullable(Type.String({ format: 'date-time' })),
  }),
  {
    customer_id: 'cust-8841',
    status: 'in_zone',
    home_hex: '897576951bbffff',
    tolerance_hops: 2,
    current_hex: '897576951bbffff',
    distance_hops: 0,
    since: '2026-11-27T09:00:00.000Z',
    last_ping_at: '2026-11-27T09:00:00.000Z',
  },
);
