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

// The severity labels of a traffic factor are domain language (pure), shared with the traffic context's answers.
export { TRAFFIC_LEVELS, trafficLevel } from './domain/traffic-levels.js';
