import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';
import { CollectionZoneSchema, OrNull } from '../../answer-parts.js';

/** GET or POST /v2/collections/locate; the position fields are null when no ping was recorded. */
export const BorrowerLocationSchema = defineAnswer(
  'BorrowerLocation',
  Type.Object({
    loan_id: Type.String(),
    customer_id: Type.String(),
    zone: CollectionZoneSchema,
    located: Type.Boolean({ description: 'Whether a position was recorded for the borrower' }),
    position: OrNull(Type.Object({ lat: Type.Number(), lng: Type.Number(), accuracy_m: OrNull(Type.Number()) })),
    hex_code: OrNull(Type.String({ description: 'The address code of the fix' })),
    inside_zone: OrNull(Type.Boolean()),
    distance_m: OrNull(Type.Number({ description: '0 inside the zone; metres to its edge outside' })),
    fix_at: OrNull(Type.String({ format: 'date-time', description: 'When the position was recorded' })),
    fix_age_s: OrNull(Type.Integer()),
    monitoring_drifting: Type.Boolean({ description: "Whether monitoring reports the borrower out of their home zone (false without one)" }),
    consent: Type.Object({ purpose: Type.String({ description: 'Always loan_collections: the consent that allows the answer' }), granted_at: OrNull(Type.String({ format: 'date-time' })) }),
    as_of: Type.String({ format: 'date-time' }),
  }),
  {
    loan_id: 'KMA-2026-004187',
    customer_id: 'cust-88213',
    zone: { type: 'point', lat: 6.6885, lng: -1.6244, radius_m: 500 },
    located: true,
    position: { lat: 6.6912, lng: -1.6201, accuracy_m: 12 },
    hex_code: 'AS7H2K9PD',
    inside_zone: true,
    distance_m: 0,
    fix_at: '2026-11-27T07:58:41.000Z',
    fix_age_s: 912,
    monitoring_drifting: false,
    consent: { purpose: 'loan_collections', granted_at: '2026-09-02T10:00:00.000Z' },
    as_of: '2026-11-27T08:13:53.000Z',
  },
);
