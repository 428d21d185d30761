import type { Doc, IndexSpec } from '../../../../platform/src/index.js';
import { coverShape } from '../domain/cover.js';
import { shapeOf, type GeofenceDefinition } from '../domain/geofence.js';
import type { CoverSummary } from './fence-index.js';

/** The `geofences` read model (projections/geofences): one document per active fence; a deleted fence's document is removed. */
export const GEOFENCES_READ_MODEL = { name: 'geofences', version: 1 } as const;
export const GEOFENCE_READ_INDEXES: IndexSpec[] = [
  { name: 'by_account', fields: ['account_id', 'created_at'] },
  { name: 'by_account_customer', fields: ['account_id', 'customer_id', 'created_at'] },
  /** Every fence of every account: what the fence index loads at start. */
  { name: 'by_created', fields: ['created_at'] },
];

/** A fence as the API answers it. */
export interface GeofenceView extends CoverSummary {
  id: string;
  fence_type: GeofenceDefinition['fence_type'];
  name: string | null;
  customer_id: string | null;
  loan_id: string | null;
  center: GeofenceDefinition['center'];
  radius_m: number | null;
  polygon: GeofenceDefinition['polygon'];
  /** Isochrone fences: `{minutes, mode, snapped, h3_resolution}`; absent on the others. */
  isochrone?: GeofenceDefinition['isochrone'];
  area_m2: number;
  created_at: string;
}

export type GeofenceDoc = Doc & GeofenceView & { account_id: string };

/** `cover`: the index's own when this process holds the fence; computed otherwise. */
export function geofenceView(fence: GeofenceDefinition, cover?: CoverSummary): GeofenceView {
  const shape = shapeOf(fence);
  let summary = cover;
  if (!summary) {
    const computed = coverShape(shape);
    summary = { h3_resolution: computed.resolution, cell_count: computed.inside.length + computed.boundary.length };
  }
  return {
    id: fence.fence_id,
    fence_type: fence.fence_type,
    name: fence.name,
    customer_id: fence.customer_id,
    loan_id: fence.loan_id,
    center: fence.center,
    radius_m: fence.radius_m,
    polygon: fence.polygon,
    ...(fence.isochrone ? { isochrone: fence.isochrone } : {}),
    area_m2: Math.round(shape.areaM2),
    h3_resolution: summary.h3_resolution,
    cell_count: summary.cell_count,
    created_at: fence.created_at,
  };
}

export function geofenceDoc(fence: GeofenceDefinition): GeofenceDoc {
  return { ...geofenceView(fence), account_id: fence.account_id };
}

export function viewOfDoc({ account_id: _account, ...view }: GeofenceDoc): GeofenceView {
  return view;
}

export function definitionOfDoc(doc: GeofenceDoc): GeofenceDefinition {
  return {
    account_id: doc.account_id,
    fence_id: doc.id,
    fence_type: doc.fence_type,
    name: doc.name,
    customer_id: doc.customer_id,
    loan_id: doc.loan_id,
    center: doc.center,
    radius_m: doc.radius_m,
    polygon: doc.polygon,
    ...(doc.isochrone ? { isochrone: doc.isochrone } : {}),
    created_at: doc.created_at,
  };
}
