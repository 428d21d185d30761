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
/**
 * What POST /v2/verify/proximity answers (docs/adr/0030): the geometric
 * decision, unless a fraud signal sends it to `review` or the client's own
 * mock-location flag `failed` it. Never `within` next to a fraud flag.
 */
export const PROXIMITY_OUTCOMES = [...PROXIMITY_DECISIONS, 'review', 'failed'] as const;
export type ProximityOutcome = (typeof PROXIMITY_OUTCOMES)[number];
/** Decisions a certificate is signed for: a statement about where the device was. Inconclusive, review and failed get none. */
export const CERTIFIED_DECISIONS: readonly ProximityOutcome[] = ['within', 'outside'];

/** The evidence of a proximity verification: one position, asserted by the caller. */
export interface ProximityEvidence {
  origin: 'asserted';
  positions: 1;
  accuracy_m: number;
  observed_at: string;
  /** What the client reported: true when the OS flagged the fix as simulated; null when not said. */
  mock_location: boolean | null;
  thresholds: { radius_m: number; accuracy_slack_cap_m: number; poor_fix_m: number; max_radius_m: number };
}

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

/** Without a reported accuracy the 100 m taken is a guess: half the confidence of a fix that says how good it is. */
export const UNREPORTED_ACCURACY_CONFIDENCE = GPS_ACCURACY_CONFIDENCE / 2;
/** Taken for a fix that reports no accuracy. */
export const UNREPORTED_ACCURACY_M = 100;

/**
 * The provenance of a point a device reported (docs/adr/0030, "device_gps"):
 * accurate to the fix's reported accuracy (100 m when it reported none);
 * confidence 0.68, the probability of its accuracy circle, halved when the
 * accuracy is not reported, 0 when the client flagged the fix as simulated;
 * established when the device took the fix, not when it was sent.
 */
export function devicePointProvenance(fix: { accuracy_m: number | null; recorded_at: string; mock_location?: boolean | null }): Provenance {
  const confidence = fix.mock_location === true ? 0 : fix.accuracy_m === null ? UNREPORTED_ACCURACY_CONFIDENCE : GPS_ACCURACY_CONFIDENCE;
  return { source: 'device_gps', provider: DEVICE_PROVIDER, accuracy_meters: fix.accuracy_m ?? UNREPORTED_ACCURACY_M, confidence, verified_at: fix.recorded_at };
}

export function proximityEvidence(device: DevicePosition & { mock_location: boolean | null }, radius_m: number): ProximityEvidence {
  return {
    origin: 'asserted',
    positions: 1,
    accuracy_m: device.accuracy_m,
    observed_at: device.recorded_at,
    mock_location: device.mock_location,
    thresholds: { radius_m, accuracy_slack_cap_m: ACCURACY_SLACK_CAP_M, poor_fix_m: POOR_FIX_M, max_radius_m: MAX_RADIUS_M },
  };
}

/** Metres to the decimetre: more precision than a GPS fix has would be noise in a signed statement. */
function roundMetres(value: number): number {
  return Math.round(value * 10) / 10;
}
