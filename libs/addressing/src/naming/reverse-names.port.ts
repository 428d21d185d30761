import type { NamedRoad, PlaceNames } from '../domain/reverse-address.js';

/**
 * What GET /v2/reverse names a point with (issue 28, item 7): ports, bound by
 * the composition root (apps/shared/contexts.ts) to the places context's
 * Gazetteer and routing's RoadNetwork, which both depend on addressing
 * (docs/adr/0014). Absent (the codec benchmark's module), reverse answers
 * `address: null`.
 */
export const REVERSE_PLACES = 'REVERSE_PLACES';
export interface ReversePlaces {
  /** Region, district, nearest locality and landmark of a point; null before any place dataset is loaded. */
  namesAt(lat: number, lng: number): PlaceNames | null;
}

export const REVERSE_ROADS = 'REVERSE_ROADS';
export interface ReverseRoads {
  /** The nearest road with a name or ref within `radiusM`; null without a loaded road network or none near. */
  nearestNamedRoad(lat: number, lng: number, radiusM: number): NamedRoad | null;
}
