import { MODES, type Mode } from '../domain/profiles.js';
import { NoRoadNearbyError, NoRouteError, RoadNetworkNotLoadedError } from '../domain/errors.js';
import { UNPAVED_AVOID_FACTOR, type EngineRouteRequest, type EngineRouteResult, type EnginePath, type PathLeg, type PathSpan, type RoadAttributes, type RouteConstraints, type RoutingEngine } from '../routing-engine.port.js';
import { greatCircleM } from '../../../platform/src/geo/geodesy.js';
import { LoadedNetwork, SNAP_RADIUS_M, type EdgeFactor, type EdgeLeg } from './loaded-network.js';
import { FLAG_FLOOD_PRONE, FLAG_FORD, type RoadGraph } from './road-graph.js';
import type { Snap } from './spatial-index.js';
import { weightedCopy, type Metric } from './traffic-metrics.js';

/** Alternatives: found with the best path's edges made this much dearer, kept when no slower than ALT_MAX_STRETCH × best and sharing at most ALT_MAX_SHARED of its length. */
const ALT_PENALTY = 1.6;
const ALT_MAX_STRETCH = 1.5;
const ALT_MAX_SHARED = 0.75;

/** The embedded engine: the imported road dataset, prepared into hierarchies (docs/adr/0018). */
export class EmbeddedEngine implements RoutingEngine {
  readonly name = 'embedded';

  constructor(private readonly network: () => LoadedNetwork | null) {}

  async route(request: EngineRouteRequest): Promise<EngineRouteResult> {
    return this.routeNow(request);
  }

  routeNow(request: EngineRouteRequest): EngineRouteResult {
    const net = this.network();
    if (!net) throw new RoadNetworkNotLoadedError();
    const { mode } = request;
    const snaps = request.points.map((point, i) => {
      const snap = net.snap(point.lat, point.lng, mode);
      if (!snap) throw new NoRoadNearbyError(i === 0 ? 'from' : i === request.points.length - 1 ? 'to' : `via[${i - 1}]`, mode, SNAP_RADIUS_M);
      return snap;
    });
    const constraints = request.constraints;
    const closed = constraints?.avoidAreas?.length ? net.closedBy(constraints.avoidAreas) : null;
    const factor = constraints ? constraintFactor(net.graph, constraints, closed?.edges ?? null) : undefined;
    const metric = factor && constraints ? metricFor(net, mode, constraints, closed) : undefined;
    const legs: EdgeLeg[] = [];
    for (let i = 1; i < snaps.length; i++) {
      const leg = net.leg(snaps[i - 1], snaps[i], mode, factor, metric);
      if (!leg) throw new NoRouteError(mode, i - 1, mode === 'driving' ? [] : blockedBy(net, request.points[i - 1], request.points[i], mode));
      legs.push(leg);
    }
    // Durations under the query's factors: read from the metric when it was customised with the current ones (no look-up per edge).
    const current = metric && metric.version === (constraints?.trafficMetric?.version ?? 0) ? metric : undefined;
    const durations: EdgeFactor | undefined = current ? (edge, dir) => current.factors[2 * edge + dir] : factor;
    const paths = [toPath(net, legs, mode, durations)];
    // Alternatives for a trip without via points: the penalty method (edges of the routes found so far made dearer).
    if (request.alternatives > 0 && legs.length === 1) {
      const found = [legs[0]];
      const best = net.staticCost(legs[0], mode);
      const penalised = new Set<number>(legs[0].edges);
      for (let attempt = 0; attempt < request.alternatives + 2 && found.length <= request.alternatives; attempt++) {
        const penalty: EdgeFactor = (edge, dir) => (penalised.has(edge) ? ALT_PENALTY : 1) * (factor ? factor(edge, dir) : 1);
        const candidate = net.leg(snaps[0], snaps[1], mode, penalty);
        if (!candidate) break;
        for (const edge of candidate.edges) penalised.add(edge);
        const cost = net.staticCost(candidate, mode);
        if (cost > best * ALT_MAX_STRETCH) continue;
        if (found.some((other) => sharedShare(net, candidate, other) > ALT_MAX_SHARED)) continue;
        found.push(candidate);
        paths.push(toPath(net, [candidate], mode, factor));
      }
    }
    return { paths, warnings: [], engine: this.name };
  }
}

/**
 * Why a mode found no route where a car does (issue 29): the roads of the
 * driving route that are closed to the mode, with the tag that closes each
 * (`highway=motorway` for an okada), or `oneway` / `island` when the way is
 * open to the mode but not in that direction or not connected for it.
 */
function blockedBy(net: LoadedNetwork, from: { lat: number; lng: number }, to: { lat: number; lng: number }, mode: Mode): Array<{ road_id: string; name: string | null; ref: string | null; restriction: string }> {
  const start = net.snap(from.lat, from.lng, 'driving');
  const end = net.snap(to.lat, to.lng, 'driving');
  const leg = start && end ? net.leg(start, end, 'driving') : null;
  if (!leg) return [];
  const graph = net.graph;
  const weights = graph.weightsOf(mode);
  const found = new Map<number, { road_id: string; name: string | null; ref: string | null; restriction: string }>();
  for (let k = 0; k < leg.edges.length && found.size < 5; k++) {
    const edge = leg.edges[k];
    if (weights[2 * edge + leg.dirs[k]] !== -1) continue;
    const wayIndex = graph.edgeWay[edge];
    if (found.has(wayIndex)) continue;
    const way = graph.ways[wayIndex];
    const restriction = way.closed_for?.[mode] ?? (weights[2 * edge + 1 - leg.dirs[k]] !== -1 ? 'oneway' : 'island');
    found.set(wayIndex, { road_id: roadIdOf(graph, edge), name: way.name, ref: way.ref, restriction });
  }
  return [...found.values()];
}

/**
 * The hierarchy customised for the query's weights (docs/adr/0025), when the
 * traffic factors say which hour and version they are: kept per mode, hour,
 * closed roads and safer-route flags. Without `trafficMetric` (factors of
 * unknown identity) and without anything else that changes weights, none:
 * the edge-based A* answers.
 */
function metricFor(net: LoadedNetwork, mode: Mode, constraints: RouteConstraints, closed: { key: string; edges: Set<number> } | null): Metric | undefined {
  if ((constraints.trafficFactor && !constraints.trafficMetric) || !net.metrics.enabled) return undefined;
  const traffic = constraints.trafficMetric;
  const key = [mode, traffic?.key ?? 'static', constraints.avoidFloodCrossings ? 'dry' : '', constraints.avoidUnpaved ? 'paved' : '', closed?.key ?? ''].join('|');
  const modeIndex = MODES.indexOf(mode);
  // A fresh factor each time: a re-customisation later reads the factors of then, not this query's cache.
  return net.metrics.get(key, traffic?.version ?? 0, () => weightedCopy(net.graph.weights[modeIndex], net.graph.edgeCount, constraintFactor(net.graph, constraints, closed?.edges ?? null))) ?? undefined;
}

/** Multiplier per edge from the query's constraints: traffic factors (≥ 1) at the edge's middle, Infinity on edges the avoided circles close. */
function constraintFactor(graph: RoadGraph, constraints: RouteConstraints, closed: Set<number> | null): EdgeFactor {
  const cache = new Map<number, number>();
  return (edge) => {
    let value = cache.get(edge);
    if (value !== undefined) return value;
    const start = graph.geomOffset[edge];
    const end = graph.geomOffset[edge + 1] - 1;
    const mid = (start + end) >> 1;
    value = Math.max(1, constraints.trafficFactor?.(graph.geomLat[mid], graph.geomLng[mid], graph.ways[graph.edgeWay[edge]].highway) ?? 1);
    const way = graph.ways[graph.edgeWay[edge]];
    if (constraints.avoidFloodCrossings && (way.ford || way.flood_prone || (graph.edgeFlags[edge] & (FLAG_FORD | FLAG_FLOOD_PRONE)) !== 0)) value = Infinity;
    if (constraints.avoidUnpaved && way.surface_class === 'unpaved') value *= UNPAVED_AVOID_FACTOR;
    if (closed?.has(edge)) value = Infinity;
    cache.set(edge, value);
    return value;
  };
}

function sharedShare(net: LoadedNetwork, a: EdgeLeg, b: EdgeLeg): number {
  const inB = new Set(b.edges);
  let shared = 0;
  let total = 0;
  for (let k = 0; k < a.edges.length; k++) {
    const length = net.graph.edgeLength[a.edges[k]] * net.fraction(a, k);
    total += length;
    if (inB.has(a.edges[k])) shared += length;
  }
  return total === 0 ? 1 : shared / total;
}

function toPath(net: LoadedNetwork, legs: EdgeLeg[], mode: Mode, factor?: EdgeFactor): EnginePath {
  const built = legs.map((leg) => toPathLeg(net, leg, mode, factor));
  const layers = new Set<number>();
  for (const leg of legs) for (const edge of leg.edges) layers.add(net.graph.ways[net.graph.edgeWay[edge]].layer);
  return {
    distance_m: built.reduce((sum, leg) => sum + leg.distance_m, 0),
    duration_s: built.reduce((sum, leg) => sum + leg.duration_s, 0),
    legs: built,
    layers: [...layers].sort((a, b) => a - b),
  };
}

/** A leg's geometry and one span per edge piece, with the road's attributes for the direction travelled; durations under the query's factors. */
export function toPathLeg(net: LoadedNetwork, leg: EdgeLeg, mode: Mode, factor?: EdgeFactor): PathLeg {
  const graph = net.graph;
  const weights = graph.weights[MODES.indexOf(mode)];
  const coordinates: Array<[number, number]> = [];
  const spans: PathSpan[] = [];
  const push = (lat: number, lng: number) => {
    const last = coordinates[coordinates.length - 1];
    if (last && last[0] === lng && last[1] === lat) return;
    coordinates.push([lng, lat]);
  };
  for (let k = 0; k < leg.edges.length; k++) {
    const edge = leg.edges[k];
    const dir = leg.dirs[k];
    const start = graph.geomOffset[edge];
    const end = graph.geomOffset[edge + 1] - 1;
    const first = Math.max(coordinates.length - 1, 0);
    piece(graph, start, end, dir, k === 0 ? leg.from : null, k === leg.edges.length - 1 ? leg.to : null, push);
    const fraction = net.fraction(leg, k);
    const tail = graph.tail(edge, dir);
    const degree = k === 0 ? -1 : graph.incidentOffset[tail + 1] - graph.incidentOffset[tail];
    spans.push({
      from: first,
      to: coordinates.length - 1,
      distance_m: graph.edgeLength[edge] * fraction,
      duration_s: LoadedNetwork.seconds(weights[2 * edge + dir] * fraction * (factor ? factor(edge, dir) : 1)),
      road_id: roadIdOf(graph, edge),
      junction_degree: degree,
      road: roadAttributes(graph, edge, dir),
    });
  }
  if (coordinates.length === 1) coordinates.push([...coordinates[0]] as [number, number]);
  // Pieces of no length (a snap on an edge's very end) say nothing; a leg keeps at least one span, over all its points.
  let kept = spans.filter((span) => span.to > span.from);
  if (kept.length === 0) kept = [{ ...spans[0], from: 0, to: coordinates.length - 1 }];
  spans.length = 0;
  spans.push(...kept);
  return {
    distance_m: spans.reduce((sum, span) => sum + span.distance_m, 0),
    duration_s: spans.reduce((sum, span) => sum + span.duration_s, 0),
    coordinates,
    spans,
    snapped_from: { lat: leg.from.lat, lng: leg.from.lng },
    snapped_to: { lat: leg.to.lat, lng: leg.to.lng },
  };
}

/**
 * What a span says about its road, shared by every span on the same way, direction and edge flags:
 * built once per graph and never mutated (frozen), so a route allocates none.
 */
const OPEN_TO_ALL: Readonly<Partial<Record<Mode, string>>> = Object.freeze({});
const attributeCache = new WeakMap<RoadGraph, Map<number, RoadAttributes>>();

function roadAttributes(graph: RoadGraph, edge: number, dir: number): RoadAttributes {
  let cache = attributeCache.get(graph);
  if (!cache) attributeCache.set(graph, (cache = new Map()));
  const wayIndex = graph.edgeWay[edge];
  const flags = graph.edgeFlags[edge] & (FLAG_FORD | FLAG_FLOOD_PRONE);
  const key = wayIndex * 8 + dir * 4 + flags;
  let road = cache.get(key);
  if (!road) {
    const way = graph.ways[wayIndex];
    road = Object.freeze({
      name: way.name,
      ref: way.ref,
      highway: way.highway,
      surface: way.surface,
      surface_class: way.surface_class,
      smoothness: way.smoothness,
      roundabout: way.roundabout,
      lanes: way.lanes,
      turn_lanes: dir === 0 ? way.turn_lanes_forward : way.turn_lanes_backward,
      maxspeed_kmh: way.maxspeed_kmh,
      bridge: way.bridge,
      ford: way.ford || (flags & FLAG_FORD) !== 0,
      flood_prone: way.flood_prone || (flags & FLAG_FLOOD_PRONE) !== 0,
      closed_for: way.closed_for ?? OPEN_TO_ALL,
    });
    cache.set(key, road);
  }
  return road;
}

const roadIds = new WeakMap<RoadGraph, string[]>();

/** `osm:way/<id>` of an edge's way, made once per way. */
function roadIdOf(graph: RoadGraph, edge: number): string {
  let ids = roadIds.get(graph);
  if (!ids) roadIds.set(graph, (ids = []));
  const wayIndex = graph.edgeWay[edge];
  return (ids[wayIndex] ??= `osm:way/${graph.ways[wayIndex].osm_id}`);
}

/** The points of an edge travelled in `dir`, cut at the start snap and/or the end snap when they lie on it, handed to `emit` in order. */
function piece(graph: RoadGraph, start: number, end: number, dir: number, from: Snap | null, to: Snap | null, emit: (lat: number, lng: number) => void): void {
  const lat = graph.geomLat;
  const lng = graph.geomLng;
  const count = end - start + 1;
  // Positions along the edge's own direction: point i sits at i, a snap on segment s at s + t.
  const position = (snap: Snap) => snap.segment + snap.t;
  if (dir === 0) {
    const lo = from ? position(from) : 0;
    const hi = to ? position(to) : count - 1;
    if (from) emit(from.lat, from.lng);
    else emit(lat[start], lng[start]);
    for (let i = Math.floor(lo) + 1; i < hi; i++) emit(lat[start + i], lng[start + i]);
    if (to) emit(to.lat, to.lng);
    else emit(lat[end], lng[end]);
  } else {
    const hi = from ? position(from) : count - 1;
    const lo = to ? position(to) : 0;
    if (from) emit(from.lat, from.lng);
    else emit(lat[end], lng[end]);
    for (let i = Math.ceil(hi) - 1; i > lo; i--) emit(lat[start + i], lng[start + i]);
    if (to) emit(to.lat, to.lng);
    else emit(lat[start], lng[start]);
  }
}
