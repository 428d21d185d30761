import { greatCircleM } from '../../../platform/src/geo/geodesy.js';

/**
 * Walking without a road graph (docs/adr/0019): the straight line times a
 * detour factor, at an unhurried pace. 1.3 is the usual ratio of street to
 * crow-fly distance in African and European city grids alike; 1.33 m/s
 * (4.8 km/h) is the pace most planners assume.
 */
export const WALK_SPEED_MPS = 1.33;
export const WALK_DETOUR_FACTOR = 1.3;
/** Walking between stops to change vehicles: stops this close (straight line) are linked. */
export const TRANSFER_RADIUS_M = 400;
/** How far one walks to the first stop and from the last one (straight line). */
export const ACCESS_RADIUS_M = 1000;
/** A walk-only itinerary is offered up to this far (straight line); farther, only vehicles are. */
export const MAX_DIRECT_WALK_M = 3000;

export interface Walk {
  /** Straight line × detour factor. */
  distanceM: number;
  seconds: number;
}

export function walkBetween(aLat: number, aLng: number, bLat: number, bLng: number): Walk {
  return walkOf(greatCircleM(aLat, aLng, bLat, bLng));
}

export function walkOf(straightM: number): Walk {
  const distance = straightM * WALK_DETOUR_FACTOR;
  return { distanceM: distance, seconds: Math.round(distance / WALK_SPEED_MPS) };
}
