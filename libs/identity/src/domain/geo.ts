import { greatCircleDistance, UNITS } from 'h3-js';

/** Great-circle metres between two points (H3's haversine on its authalic sphere). */
export function metresBetween(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  return greatCircleDistance([a.lat, a.lng], [b.lat, b.lng], UNITS.m);
}

/** Metres to the decimetre: more precision than a GPS fix has would be noise in a signed statement. */
export function roundMetres(value: number): number {
  return Math.round(value * 10) / 10;
}
