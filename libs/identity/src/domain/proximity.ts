import type { Provenance } from '../../../addressing/src/index.js';
import { greatCircleM } from '../../../platform/src/geo/geodesy.js';

/**
 * Whether a device was near an address (POST /v2/verify/proximity; the same
 * rule places a position "in the zone" for KYC and a courier "at the address"
 * for proof of delivery). docs/adr/0016-identity-signing-and-proofs.md.
 *
 * - The radius around the claimed point is 100 m, widened to the claimed
 *   point's own accuracy when that is coarser (a resolution-9 code's cell, a
 *   village found by name). A claim coarser than 1 km names an area, not an
 *   address: such a claim is never `within`.
 * - A GPS accuracy is the radius of the fix's 68% circle (as Android and iOS
 *   report it). Up to 50 m of it is granted as slack: a fix whose circle
 *   reaches the radius counts, but a vague fix cannot stretch the radius far.
 * - A fix vaguer than 150 m cannot show the device was at one address: it is
 *   `inconclusive`, unless even its nearest reading is outside the radius.
 */
export const DEFAULT_RADIUS_M = 100;
export const MAX_RADIUS_M = 1000;
export const ACCURACY_SLACK_CAP_M = 50;
export const POOR_FIX_M = 150;
/** What GPS accuracy figures mean on phones: the true position lies within the accuracy radius 68% of the time. */
export const GPS_ACCURACY_CONFIDENCE = 0.68;
/** Largest accuracy accepted as input (beyond it a figure is not a fix). */
export const MAX_ACCURACY_INPUT_M = 100_000;
/** Provider named on a point the caller's device reported (as GET /v2/reverse names it). */
export const DEVICE_PROVIDER = 'caller';

export const PROXIMITY_DECISIONS = ['within', 'outside', 'inconclusive'] as const;
export type ProximityDecision = (typeof PROXIMITY_DECISIONS)[number];

/** The address a customer claims, as the addressing resolver established it. */
export interface ClaimedAddress {
  /** What the caller sent. */
  input: string;
  /** The hex code of the resolved point (for a code: the code itself). */
  code: string;
  input_kind: 'hex_code' | 'text';
  precision: 'structure' | 'cell' | 'place';
  label: string | null;
  lat: number;
  lng: number;
  /** How far from `lat`, `lng` the address may lie: the resolver's provenance accuracy. */
  accuracy_m: number;
}

export interface DevicePosition {
  lat: number;
  lng: number;
  accuracy_m: number;
  /** When the device took the fix (ISO 8601 UTC). */
  recorded_at: string;
}

export interface ProximityAssessment {
  decision: ProximityDecision;
  distance_m: number;
  radius_m: number;
  /** Why, as stable codes: within_radius, outside_radius, gps_accuracy_too_poor, address_too_coarse. */
  reasons: string[];
}

export function radiusFor(claim: Pick<ClaimedAddress, 'accuracy_m'>): number {
  return Math.max(DEFAULT_RADIUS_M, Math.ceil(claim.accuracy_m));
}

/** Whether a fix `distance` metres from the centre, accurate to `accuracy`, counts as inside `radius`. */
export function withinRadius(distance: number, radius: number, accuracy: number): boolean {
  return distance <= radius + Math.min(accuracy, ACCURACY_SLACK_CAP_M);
}

export function assessProximity(claim: Pick<ClaimedAddress, 'lat' | 'lng' | 'accuracy_m'>, device: Pick<DevicePosition, 'lat' | 'lng' | 'accuracy_m'>): ProximityAssessment {
  const radius_m = radiusFor(claim);
  const distance = greatCircleM(claim.lat, claim.lng, device.lat, device.lng);
  const distance_m = roundMetres(distance);
  // Even the reading nearest the address is outside: no accuracy or coarseness makes this near.
  const surelyOutside = distance - device.accuracy_m > radius_m;
  if (radius_m > MAX_RADIUS_M) return { decision: surelyOutside ? 'outside' : 'inconclusive', distance_m, radius_m, reasons: surelyOutside ? ['outside_radius'] : ['address_too_coarse'] };
  if (device.accuracy_m > POOR_FIX_M) return { decision: surelyOutside ? 'outside' : 'inconclusive', distance_m, radius_m, reasons: surelyOutside ? ['outside_radius'] : ['gps_accuracy_too_poor'] };
  return withinRadius(distance, radius_m, device.accuracy_m)
    ? { decision: 'within', distance_m, radius_m, reasons: ['within_radius'] }
    : { decision: 'outside', distance_m, radius_m, reasons: ['outside_radius'] };
}

/** The provenance of a point a device reported: `device_gps`, accurate to its fix, established when the request was verified. */
export function devicePointProvenance(accuracy_m: number, verifiedAt: Date): Provenance {
  return { source: 'device_gps', provider: DEVICE_PROVIDER, accuracy_meters: accuracy_m, confidence: GPS_ACCURACY_CONFIDENCE, verified_at: verifiedAt.toISOString() };
}

/** Metres to the decimetre: more precision than a GPS fix has would be noise in a signed statement. */
function roundMetres(value: number): number {
  return Math.round(value * 10) / 10;
}
