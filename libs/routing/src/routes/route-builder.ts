import { bearing } from '../../../platform/src/geo/geodesy.js';
import { compass, lanesFor, spokenDistance, turnAngle, turnClass, verbOf, type TurnClass } from '../domain/maneuvers.js';
import { encodePolyline } from '../domain/polyline.js';
import type { Mode } from '../domain/profiles.js';
import type { EnginePath, PathLeg, PathSpan, RoadAttributes } from '../routing-engine.port.js';
import { trafficLevel } from '../road-conditions.port.js';
import type { Detour } from './detour.js';
import { chooseLandmark, landmarkPhrase, type ChosenLandmark, type LandmarkSource } from './landmark-narration.js';

export type Narration = 'street' | 'landmark' | 'both';

/**
 * Surface colours of a step (documented in the README): paved green, unpaved
 * brown, unknown grey. Untagged motorways, trunk, primary and secondary roads
 * (and their links) count as paved: in Ghana's cities they are, and OSM
 * leaves the obvious untagged (Valhalla assumes the same by class).
 */
export const SURFACE_COLORS = { paved: '#2E7D32', unpaved: '#8D6E63', unknown: '#9E9E9E' } as const;
const ASSUMED_PAVED = /^(motorway|trunk|primary|secondary)(_link)?$/;
/** has_unpaved is left out (unknown) when more than this share of the route's length has no known surface. */
export const MAX_UNKNOWN_SURFACE_SHARE = 0.2;
/** Traffic is neutral until learned traffic exists (issue #16): factor 1, severity `unknown`, grey. */
export const NEUTRAL_TRAFFIC = { traffic_factor: 1, traffic_severity: 'unknown', traffic_color: '#9E9E9E', traffic_source: 'prior' } as const;

export interface RouteStep {
  instruction: string;
  name: string;
  ref: string | null;
  distance_m: number;
  duration_s: number;
  coordinates: Array<[number, number]>;
  maneuver_point: [number, number];
  bearing_before: number;
  bearing_after: number;
  turn_angle: number;
  turn_class: TurnClass;
  roundabout_exit?: number;
  surface: 'paved' | 'unpaved' | 'unknown';
  surface_color: string;
  verbal_alert: string;
  verbal_post: string | null;
  traffic_factor: number;
  traffic_severity: string;
  traffic_color: string;
  /** Whether traffic_factor is the traffic model's learned figure or its prior (ADR 0031). */
  traffic_source: 'learned' | 'prior';
  lanes?: Array<{ indications: string[]; valid: boolean }>;
  instruction_landmark?: string;
  landmark_confidence?: number;
  alternate_landmarks?: string[];
  landmark?: { name: string; slug: string; kind: string; lat: number; lng: number; distance_m: number; position: 'before' | 'at' | 'after' } | null;
  /** The leg it belongs to (0 without via points). */
  leg: number;
}

export interface BuiltRoute {
  distance_m: number;
  duration_s: number;
  geometry: { type: 'LineString'; coordinates: Array<[number, number]> };
  polyline: string;
  summary: string;
  steps: RouteStep[];
  legs: Array<{
    distance_m: number;
    duration_s: number;
    summary: string;
    snapped_from: { lat: number; lng: number };
    snapped_to: { lat: number; lng: number };
    /** How far the leg's requested start and end were moved onto the road (docs/adr/0035); set by the planner. */
    snap_distance_from_m?: number;
    snap_distance_to_m?: number;
  }>;
  recommended: boolean;
  recommend_reason: string | null;
  flood_crossings: number;
  has_unpaved?: boolean;
  unpaved_distance_m: number;
  incident_count: number;
  warnings: string[];
  /** Set by the planner when the route is poor against the driving route or the straight line (routes/detour.ts). */
  detour?: Detour;
  rain_note: string | null;
  rain_eta_penalty_s: number;
}

interface Group {
  spans: PathSpan[];
  roundabout: boolean;
  exits: number;
  /** The road after a roundabout: a roundabout and its exit road are one step. */
  exitRoad: Group | null;
}

const round1 = (value: number) => Math.round(value * 10) / 10;

/** Traffic of a step: the learned factor at its middle for its road class (undefined: nothing learned). */
export type StepTraffic = (lat: number, lng: number, highway: string) => number | undefined;

export function buildRoute(path: EnginePath, options: { mode: Mode; narration: Narration; landmarks: LandmarkSource | null; warnings?: string[]; traffic?: StepTraffic }): BuiltRoute {
  const steps: RouteStep[] = [];
  const coordinates: Array<[number, number]> = [];
  path.legs.forEach((leg, index) => {
    const legSteps = stepsOfLeg(leg, index, index === path.legs.length - 1, options);
    steps.push(...legSteps);
    for (const point of leg.coordinates) {
      const last = coordinates[coordinates.length - 1];
      if (!last || last[0] !== point[0] || last[1] !== point[1]) coordinates.push(point);
    }
  });
  const flags = safetyFlags(path);
  return {
    distance_m: round1(path.distance_m),
    duration_s: round1(path.duration_s),
    geometry: { type: 'LineString', coordinates },
    polyline: encodePolyline(coordinates),
    summary: summaryOf(path.legs.flatMap((leg) => leg.spans)),
    steps,
    legs: path.legs.map((leg) => ({ distance_m: round1(leg.distance_m), duration_s: round1(leg.duration_s), summary: summaryOf(leg.spans), snapped_from: leg.snapped_from, snapped_to: leg.snapped_to })),
    recommended: false,
    recommend_reason: null,
    ...flags,
    incident_count: 0,
    warnings: [...(options.warnings ?? [])],
    rain_note: null,
    rain_eta_penalty_s: 0,
  };
}

/** flood_crossings, has_unpaved (left out when too much is unknown), unpaved_distance_m. */
function safetyFlags(path: EnginePath): { flood_crossings: number; has_unpaved?: boolean; unpaved_distance_m: number } {
  let crossings = 0;
  let unpaved = 0;
  let unknown = 0;
  let total = 0;
  for (const leg of path.legs) {
    let inCrossing = false;
    for (const span of leg.spans) {
      const flooded = span.road.ford || span.road.flood_prone;
      if (flooded && !inCrossing) crossings++;
      inCrossing = flooded;
      const surface = surfaceOf(span.road);
      if (surface === 'unpaved') unpaved += span.distance_m;
      if (surface === 'unknown') unknown += span.distance_m;
      total += span.distance_m;
    }
  }
  const known = total === 0 || unknown / total <= MAX_UNKNOWN_SURFACE_SHARE;
  return { flood_crossings: crossings, ...(known ? { has_unpaved: unpaved > 0 } : {}), unpaved_distance_m: round1(unpaved) };
}

export function surfaceOf(road: RoadAttributes): 'paved' | 'unpaved' | 'unknown' {
  if (road.surface_class !== 'unknown') return road.surface_class;
  return ASSUMED_PAVED.test(road.highway) ? 'paved' : 'unknown';
}

function nameOf(road: RoadAttributes): string {
  return road.name ?? road.ref ?? '';
}

function summaryOf(spans: PathSpan[]): string {
  const byName = new Map<string, number>();
  for (const span of spans) {
    const name = nameOf(span.road);
    if (name) byName.set(name, (byName.get(name) ?? 0) + span.distance_m);
  }
  return [...byName.entries()].sort((a, b) => b[1] - a[1]).slice(0, 2).map(([name]) => name).join(', ');
}

function spanBearingIn(leg: PathLeg, span: PathSpan): number {
  const a = leg.coordinates[Math.max(span.from, span.to - 1)];
  const b = leg.coordinates[span.to];
  const from = a === b ? leg.coordinates[Math.max(0, span.to - 1)] : a;
  return bearing(from[1], from[0], b[1], b[0]);
}

function spanBearingOut(leg: PathLeg, span: PathSpan): number {
  const a = leg.coordinates[span.from];
  const b = leg.coordinates[Math.min(span.from + 1, leg.coordinates.length - 1)];
  return bearing(a[1], a[0], b[1], b[0]);
}

/** Spans merged into the roads a person would name: same name (or ref), one roundabout, an unnamed road that goes on straight. */
function groupsOf(leg: PathLeg): Group[] {
  const groups: Group[] = [];
  for (const span of leg.spans) {
    const last = groups[groups.length - 1];
    const previous = last?.spans[last.spans.length - 1];
    if (last && previous) {
      if (last.roundabout && span.road.roundabout) {
        if (span.junction_degree >= 3) last.exits++;
        last.spans.push(span);
        continue;
      }
      if (!last.roundabout && !span.road.roundabout) {
        const name = nameOf(span.road);
        const sameName = name !== '' && name === nameOf(previous.road);
        const straightUnnamed = name === '' && nameOf(previous.road) === '' && (span.road_id === previous.road_id || Math.abs(turnAngle(spanBearingIn(leg, previous), spanBearingOut(leg, span))) < 30);
        if (sameName || straightUnnamed) {
          last.spans.push(span);
          continue;
        }
      }
    }
    groups.push({ spans: [span], roundabout: span.road.roundabout, exits: 1, exitRoad: null });
  }
  // A roundabout and the road it is left by make one step.
  const merged: Group[] = [];
  for (const group of groups) {
    const last = merged[merged.length - 1];
    if (last?.roundabout && !last.exitRoad && !group.roundabout) last.exitRoad = group;
    else merged.push(group);
  }
  return merged;
}

function stepsOfLeg(leg: PathLeg, legIndex: number, lastLeg: boolean, options: { mode: Mode; narration: Narration; landmarks: LandmarkSource | null; traffic?: StepTraffic }): RouteStep[] {
  const groups = groupsOf(leg);
  const steps: RouteStep[] = [];
  let previousBearing: number | null = null;
  for (const [g, group] of groups.entries()) {
    const spans = group.exitRoad ? [...group.spans, ...group.exitRoad.spans] : group.spans;
    const first = spans[0];
    const lastSpan = spans[spans.length - 1];
    const road = group.exitRoad ? group.exitRoad.spans[0].road : first.road;
    const bearingAfter = spanBearingOut(leg, first);
    const bearingBefore = previousBearing ?? bearingAfter;
    const angle = g === 0 ? 0 : turnAngle(bearingBefore, bearingAfter);
    let turn: TurnClass = g === 0 ? (legIndex === 0 ? 'depart' : 'waypoint') : turnClass(angle);
    if (group.roundabout) turn = `roundabout_exit_${group.exits}`;
    if (g === 0 && group.roundabout) turn = `roundabout_exit_${group.exits}`;
    const name = nameOf(road);
    const verb = verbOf(g === 0 && !group.roundabout ? (legIndex === 0 ? 'depart' : 'straight') : turn, bearingAfter);
    const street = streetInstruction(verb, turn, name, g === 0 && !group.roundabout, legIndex);
    const distance = spans.reduce((sum, span) => sum + span.distance_m, 0);
    const duration = spans.reduce((sum, span) => sum + span.duration_s, 0);
    const point = leg.coordinates[first.from];
    // Lanes: the turn lanes of the road arriving at the manoeuvre, where tagged.
    const approach = g > 0 ? groups[g - 1] : null;
    const approachSpans = approach ? (approach.exitRoad ? approach.exitRoad.spans : approach.spans) : [];
    const lanes = approach ? lanesFor(approachSpans[approachSpans.length - 1].road.turn_lanes, turn) : null;
    const surface = dominantSurface(spans);
    const step: RouteStep = {
      instruction: street,
      name,
      ref: road.ref,
      distance_m: round1(distance),
      duration_s: round1(duration),
      coordinates: leg.coordinates.slice(first.from, lastSpan.to + 1),
      maneuver_point: point,
      bearing_before: g === 0 ? 0 : bearingBefore,
      bearing_after: bearingAfter,
      turn_angle: angle,
      turn_class: turn,
      ...(group.roundabout ? { roundabout_exit: group.exits } : {}),
      surface,
      surface_color: SURFACE_COLORS[surface],
      verbal_alert: street,
      verbal_post: `Continue for ${spokenDistance(distance)}`,
      ...stepTraffic(options.traffic, leg.coordinates[(first.from + lastSpan.to) >> 1], road.highway),
      ...(lanes ? { lanes } : {}),
      leg: legIndex,
    };
    if (options.narration !== 'street') narrate(step, options.landmarks, verb, name, g === 0 && !group.roundabout ? null : bearingBefore, options.narration);
    steps.push(step);
    previousBearing = spanBearingIn(leg, lastSpan);
  }
  if (lastLeg) {
    const end = leg.coordinates[leg.coordinates.length - 1];
    const arrive: RouteStep = {
      instruction: 'Arrive at your destination',
      name: steps[steps.length - 1]?.name ?? '',
      ref: null,
      distance_m: 0,
      duration_s: 0,
      coordinates: [end, end],
      maneuver_point: end,
      bearing_before: previousBearing ?? 0,
      bearing_after: 0,
      turn_angle: 0,
      turn_class: 'arrive',
      surface: steps[steps.length - 1]?.surface ?? 'unknown',
      surface_color: SURFACE_COLORS[steps[steps.length - 1]?.surface ?? 'unknown'],
      verbal_alert: 'You have arrived at your destination',
      verbal_post: null,
      ...NEUTRAL_TRAFFIC,
      leg: legIndex,
    };
    if (options.narration !== 'street') narrate(arrive, options.landmarks, 'Arrive at your destination', '', previousBearing, options.narration);
    steps.push(arrive);
  }
  return steps;
}

function streetInstruction(verb: string, turn: TurnClass, name: string, departing: boolean, legIndex: number): string {
  if (departing) return legIndex === 0 ? (name ? `${verb} on ${name}` : verb) : name ? `Continue on ${name}` : 'Continue';
  if (turn === 'straight') return name ? `Continue onto ${name}` : 'Continue straight';
  return name ? `${verb} onto ${name}` : verb;
}

function dominantSurface(spans: PathSpan[]): 'paved' | 'unpaved' | 'unknown' {
  const by = { paved: 0, unpaved: 0, unknown: 0 };
  for (const span of spans) by[surfaceOf(span.road)] += span.distance_m;
  return (Object.entries(by) as Array<[keyof typeof by, number]>).sort((a, b) => b[1] - a[1])[0][0];
}

/**
 * Landmark narration of one step: "Turn left after Kaneshie Market" (with
 * `both`, the street too: "Turn left onto Ring Road after Kaneshie Market").
 * No good landmark: the street instruction, never nothing.
 */
function narrate(step: RouteStep, source: LandmarkSource | null, verb: string, name: string, approach: number | null, narration: Narration): void {
  const [lng, lat] = step.maneuver_point;
  const chosen: ChosenLandmark | null = source && step.turn_class !== 'depart' && step.turn_class !== 'waypoint' ? chooseLandmark(source, lat, lng, approach) : null;
  if (!chosen) {
    step.instruction_landmark = step.instruction;
    step.landmark_confidence = 0;
    step.alternate_landmarks = [];
    step.landmark = null;
    return;
  }
  const phrase = landmarkPhrase(chosen);
  const landmarkText = step.turn_class === 'arrive' ? `Your destination is ${chosen.position === 'at' ? 'at' : 'near'} ${chosen.name}` : `${verb} ${phrase}`;
  step.instruction_landmark = landmarkText;
  step.landmark_confidence = chosen.confidence;
  step.alternate_landmarks = chosen.alternates;
  step.landmark = { name: chosen.name, slug: chosen.slug, kind: chosen.kind, lat: chosen.lat, lng: chosen.lng, distance_m: chosen.distance_m, position: chosen.position };
  if (narration === 'landmark') step.instruction = landmarkText;
  else if (step.turn_class !== 'arrive') step.instruction = name ? `${verb} onto ${name} ${phrase}` : landmarkText;
  else step.instruction = `Arrive at your destination, ${chosen.position === 'at' ? 'at' : 'near'} ${chosen.name}`;
  step.verbal_alert = step.instruction;
}

export { compass };

function stepTraffic(traffic: StepTraffic | undefined, point: [number, number], highway: string) {
  return traffic ? trafficLevel(traffic(point[1], point[0], highway)) : NEUTRAL_TRAFFIC;
}
