import { greatCircleM } from '../../../platform/src/geo/geodesy.js';
import { accessRestriction, type Mode } from '../domain/profiles.js';
import type { EnginePath, LatLng } from '../routing-engine.port.js';

/**
 * Routes that say when they are poor (issue 50, docs/adr/0061): a route
 * longer than DETOUR_VS_DRIVING × the driving route between the same points,
 * or than DETOUR_VS_STRAIGHT × the straight line through them, carries a
 * warning naming why: the roads a car takes are closed to the mode, or the
 * network here has nothing more direct. A detour is counted only when it is
 * at least DETOUR_MIN_EXTRA_M longer than what it is compared with: round
 * the block on one-way streets for a 300 m trip is not news.
 */
export const DETOUR_VS_DRIVING = 2;
export const DETOUR_VS_STRAIGHT = 3;
export const DETOUR_MIN_EXTRA_M = 1000;
/** At most this many closed roads are named (the longest first). */
const MAX_CLOSED_ROADS = 5;
const NAMED_IN_WARNING = 3;

/**
 * A road of the driving route the mode may not use, as NO_ROUTE's
 * `details.blocked_by` names one: its ways of one name, number, class and
 * closing tag together (a motorway is many ways), with how much of the
 * driving route it carries.
 */
export interface ClosedRoad {
  /** The ways (engine-specific ids: `osm:way/<id>`), in the order the driving route meets them. */
  road_ids: string[];
  name: string | null;
  ref: string | null;
  highway: string;
  /** The tag that closes it to the mode: `highway=motorway`, `motorcycle=no`. */
  restriction: string;
  distance_m: number;
}

export type DetourReason = 'closed_to_mode' | 'sparse_network';

export interface Detour {
  reason: DetourReason;
  distance_m: number;
  straight_line_m: number;
  /** The driving route between the same points; null for a driving route, or when none was computed or found. */
  driving_distance_m: number | null;
  /** With `closed_to_mode`: the roads of the driving route closed to the mode, longest first. */
  closed_roads: ClosedRoad[];
}

/** How the warnings call a mode's travellers. */
const MODE_LABEL: Record<Mode, string> = { driving: 'cars', motor_scooter: 'okada', bicycle: 'bicycles', walking: 'pedestrians' };
const MODE_NOUN: Record<Mode, string> = { driving: 'driving', motor_scooter: 'okada', bicycle: 'bicycle', walking: 'walking' };

/** The straight line through the requested points, in metres (from, via…, to). */
export function straightLineM(points: readonly LatLng[]): number {
  let total = 0;
  for (let i = 1; i < points.length; i++) total += greatCircleM(points[i - 1].lat, points[i - 1].lng, points[i].lat, points[i].lng);
  return total;
}

const exceeds = (distance: number, reference: number, ratio: number) => distance > ratio * reference && distance - reference >= DETOUR_MIN_EXTRA_M;

/**
 * Whether a route of a non-driving mode is long enough against the straight
 * line to be worth the driving route as a comparison (a second route
 * computation): only past DETOUR_VS_DRIVING × the straight line, since a
 * driving route is never much shorter than the straight line.
 */
export function worthComparing(mode: Mode, distance: number, straight: number): boolean {
  return mode !== 'driving' && exceeds(distance, straight, DETOUR_VS_DRIVING);
}

/**
 * The detour a route makes, or null when it is not poor. `driving` is the
 * driving route between the same points when one was computed (see
 * worthComparing); its roads closed to the mode name the reason.
 */
export function detourOf(distance: number, mode: Mode, straight: number, driving: EnginePath | null): Detour | null {
  const drivingDistance = mode === 'driving' ? null : (driving?.distance_m ?? null);
  const vsDriving = drivingDistance !== null && exceeds(distance, drivingDistance, DETOUR_VS_DRIVING);
  const vsStraight = exceeds(distance, straight, DETOUR_VS_STRAIGHT);
  if (!vsDriving && !vsStraight) return null;
  // The car's roads explain the detour only when the car's route is clearly shorter.
  const closed = driving && drivingDistance !== null && distance - drivingDistance >= DETOUR_MIN_EXTRA_M ? closedRoads(driving, mode) : [];
  return {
    reason: closed.length > 0 ? 'closed_to_mode' : 'sparse_network',
    distance_m: Math.round(distance),
    straight_line_m: Math.round(straight),
    driving_distance_m: drivingDistance === null ? null : Math.round(drivingDistance),
    closed_roads: closed,
  };
}

/** The roads of a driving path the mode may not use, longest first: what the embedded engine knows of each way, else the road class's default (GraphHopper). */
export function closedRoads(driving: EnginePath, mode: Mode): ClosedRoad[] {
  const found = new Map<string, ClosedRoad>();
  for (const leg of driving.legs) {
    for (const span of leg.spans) {
      const road = span.road;
      const restriction = road.closed_for !== undefined ? (road.closed_for[mode] ?? null) : accessRestriction(mode, { highway: road.highway });
      if (!restriction) continue;
      // Unnamed roads are told apart by their ways.
      const key = road.name || road.ref ? `${road.ref ?? ''}|${road.name ?? ''}|${road.highway}|${restriction}` : span.road_id;
      const known = found.get(key);
      if (!known) found.set(key, { road_ids: [span.road_id], name: road.name, ref: road.ref, highway: road.highway, restriction, distance_m: span.distance_m });
      else {
        known.distance_m += span.distance_m;
        if (!known.road_ids.includes(span.road_id)) known.road_ids.push(span.road_id);
      }
    }
  }
  return [...found.values()]
    .sort((a, b) => b.distance_m - a.distance_m)
    .slice(0, MAX_CLOSED_ROADS)
    .map((road) => ({ ...road, distance_m: Math.round(road.distance_m) }));
}

const km = (m: number) => `${(m / 1000).toFixed(1)} km`;
const times = (a: number, b: number) => `${(a / b).toFixed(1)}×`;

/** "the N1 motorway (Kwame Nkrumah Motorway)", "Tetteh Quarshie Interchange (motorway link)", with the closing tag when it is not the road class: "Hospital Road (secondary, foot=no)". */
function roadLabel(road: ClosedRoad): string {
  const kind = road.highway.replace(/_/g, ' ');
  const tag = road.restriction === `highway=${road.highway}` ? [] : [road.restriction];
  const aside = (parts: string[]) => (parts.length > 0 ? ` (${parts.join(', ')})` : '');
  if (road.ref) return `the ${road.ref} ${kind}${aside([...(road.name && !road.name.includes(road.ref) ? [road.name] : []), ...tag])}`;
  if (road.name) return `${road.name}${aside([kind, ...tag])}`;
  return `an unnamed ${kind}${aside(tag)}`;
}

/**
 * The warning a poor route carries: "detour: 72.3 km, 2.9× the driving route
 * (25.3 km): closed to okada: the N1 motorway (Kwame Nkrumah Motorway)", or
 * "detour: 9.1 km, 3.4× the straight line (2.7 km): sparse network here, no
 * more direct road open to bicycles (driving: 8.8 km)".
 */
export function detourWarning(detour: Detour, mode: Mode): string {
  const { distance_m: distance, straight_line_m: straight, driving_distance_m: driving } = detour;
  const against =
    driving !== null && exceeds(distance, driving, DETOUR_VS_DRIVING)
      ? `${times(distance, driving)} the driving route (${km(driving)})`
      : `${times(distance, straight)} the straight line (${km(straight)})`;
  if (detour.reason === 'closed_to_mode') {
    const roads = detour.closed_roads.slice(0, NAMED_IN_WARNING).map(roadLabel);
    const more = detour.closed_roads.length - roads.length;
    return `detour: ${km(distance)} ${MODE_NOUN[mode]} route, ${against}: closed to ${MODE_LABEL[mode]}: ${roads.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
  }
  const car = driving !== null ? ` (driving: ${km(driving)})` : '';
  return `detour: ${km(distance)} ${MODE_NOUN[mode]} route, ${against}: sparse network here, no more direct road open to ${MODE_LABEL[mode]}${car}`;
}
