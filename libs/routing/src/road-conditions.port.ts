/**
 * What the road is like now (docs/adr/0025): learned traffic and reported
 * hazards, a port routing defines and the traffic context fills (routing
 * never imports traffic). Unfilled, routes stay on the static model.
 */
export interface RoadHazard {
  id: string;
  kind: string;
  lat: number;
  lng: number;
  /** Distinct reporters that confirmed it. */
  corroborations: number;
  /** Whether a route asked to avoid incidents must not pass it (flooding/road_blocked with ≥ 2 reporters). */
  blocks: boolean;
  /** How far from its point the hazard closes the road, metres. */
  radius_m: number;
}

export interface RoadConditions {
  /** Travel-time multiplier learned at a point for a road class at a time of day; undefined where the traffic model is on its prior (the static speeds). */
  trafficFactor(lat: number, lng: number, highway: string, at: Date): number | undefined;
  /** Whether any learned factor exists (otherwise routes keep the static contraction hierarchies). */
  hasTraffic(): boolean;
  /** Names the factors `trafficFactor` answers at `at`: the same key and version, the same factors (routing keeps a hierarchy customised for them). */
  trafficMetric?(at: Date): { key: string; version: number };
  /** Hazards active at `at`. */
  hazards(at: Date): RoadHazard[];
}

/** Filled by the traffic context at start; empty in processes without it. */
export class RoadConditionsSlot {
  current: RoadConditions | null = null;
}

/**
 * Severity labels of a traffic factor (documented in the README and ADR 25):
 * unknown (nothing learned), free (< 1.15), moderate (< 1.4), heavy (< 1.8),
 * severe (≥ 1.8), each with its colour.
 */
export const TRAFFIC_LEVELS = [
  { severity: 'free', below: 1.15, color: '#4CAF50' },
  { severity: 'moderate', below: 1.4, color: '#FFC107' },
  { severity: 'heavy', below: 1.8, color: '#FF5722' },
  { severity: 'severe', below: Infinity, color: '#B71C1C' },
] as const;

/** `traffic_source` (ADR 0031): `learned` where the factor came from the traffic model's learned figure, `prior` (the static speeds) otherwise. */
export function trafficLevel(factor: number | undefined): { traffic_factor: number; traffic_severity: string; traffic_color: string; traffic_source: 'learned' | 'prior' } {
  if (factor === undefined) return { traffic_factor: 1, traffic_severity: 'unknown', traffic_color: '#9E9E9E', traffic_source: 'prior' };
  const level = TRAFFIC_LEVELS.find((candidate) => factor < candidate.below)!;
  return { traffic_factor: Math.round(factor * 100) / 100, traffic_severity: level.severity, traffic_color: level.color, traffic_source: 'learned' };
}
