import { accessRestriction, isRoundabout, MODES, parseMaxspeed, speedKmh, surfaceClass, travelDirection, type Mode, type SurfaceClass } from '../domain/profiles.js';
import type { RoadNodeRecord, RoadRecord, RoadWayRecord, TurnRestrictionRecord } from '../domain/road-records.js';
import { greatCircleM } from '../../../platform/src/geo/geodesy.js';
import { TurnSequences } from './turn-sequences.js';

/** What a route needs to say about the road it is on; one per OSM way. */
export interface WayInfo {
  osm_id: number;
  name: string | null;
  ref: string | null;
  highway: string;
  surface: string | null;
  surface_class: SurfaceClass;
  smoothness: string | null;
  roundabout: boolean;
  lanes: number | null;
  /** `turn:lanes` for travel along the way (`turn:lanes:forward` or, on a one-way road, `turn:lanes`) and against it. */
  turn_lanes_forward: string | null;
  turn_lanes_backward: string | null;
  maxspeed_kmh: number | null;
  bridge: boolean;
  tunnel: boolean;
  ford: boolean;
  flood_prone: boolean;
  /** The tag that closes the way to a mode (`highway=motorway`, `foot=no`), for the modes it is closed to; absent when open to all. */
  closed_for?: Partial<Record<Mode, string>>;
  /** Index of the dataset (layer) the way came from, in the network's layer list (docs/adr/0035). */
  layer: number;
}

/** Node and edge flags: what a route crossing them must report. */
export const FLAG_FORD = 1;
export const FLAG_FLOOD_PRONE = 2;
export const FLAG_SIGNALS = 4;
export const FLAG_BARRIER = 8;

/** Weights are integer tenths of a second: shortcuts add exactly, so the engine and the oracle agree to the unit. */
export const WEIGHT_UNITS_PER_SECOND = 10;
export const NO_ACCESS = -1;

/**
 * The routable road network of one dataset version: junction nodes, edges
 * between them (a piece of one OSM way, with its geometry), per-mode weights
 * in each direction, and forbidden turns. Everything is typed arrays, so the
 * prepared graph is written to disk and read back without parsing
 * (engine/graph-file.ts).
 */
export class RoadGraph {
  constructor(
    readonly nodeLat: Float64Array,
    readonly nodeLng: Float64Array,
    readonly nodeFlags: Uint8Array,
    readonly edgeFrom: Int32Array,
    readonly edgeTo: Int32Array,
    readonly edgeWay: Int32Array,
    readonly edgeLength: Float64Array,
    readonly edgeFlags: Uint8Array,
    readonly geomOffset: Int32Array,
    readonly geomLat: Float64Array,
    readonly geomLng: Float64Array,
    /** Per mode (MODES order): [2e] along the edge, [2e+1] against it; NO_ACCESS when closed. */
    readonly weights: Int32Array[],
    /** Forbidden turns: (from edge, via node, to edge) triples, and which modes each binds (bit per MODES index). */
    readonly turnTriples: Int32Array,
    readonly turnModes: Uint8Array,
    readonly ways: WayInfo[],
    /** Incident edges of each node (CSR). */
    readonly incidentOffset: Int32Array,
    readonly incidentEdges: Int32Array,
    /** Via-way restrictions as forbidden sequences of directed edges (2e+dir), CSR: sequence i is viaWayEdges[viaWayOffset[i]..viaWayOffset[i+1]). */
    readonly viaWayOffset: Int32Array = new Int32Array(1),
    readonly viaWayEdges: Int32Array = new Int32Array(0),
    /** Which modes each sequence binds (bit per MODES index). */
    readonly viaWayModes: Uint8Array = new Uint8Array(0),
  ) {}

  get nodeCount(): number {
    return this.nodeLat.length;
  }

  get edgeCount(): number {
    return this.edgeFrom.length;
  }

  weightsOf(mode: Mode): Int32Array {
    return this.weights[MODES.indexOf(mode)];
  }

  /** The node an edge reaches when travelled in `dir` (0 along, 1 against). */
  head(edge: number, dir: number): number {
    return dir === 0 ? this.edgeTo[edge] : this.edgeFrom[edge];
  }

  tail(edge: number, dir: number): number {
    return dir === 0 ? this.edgeFrom[edge] : this.edgeTo[edge];
  }

  private forbidden: Map<number, Array<{ via: number; to: number; modes: number }>> | null = null;

  /** Whether turning from `fromEdge` onto `toEdge` at `via` is forbidden for the mode of index `modeIndex` (MODES order). */
  turnForbidden(fromEdge: number, via: number, toEdge: number, modeIndex: number): boolean {
    if (this.turnModes.length === 0) return false;
    if (!this.forbidden) {
      this.forbidden = new Map();
      for (let i = 0; i < this.turnModes.length; i++) {
        const from = this.turnTriples[3 * i];
        const list = this.forbidden.get(from) ?? [];
        list.push({ via: this.turnTriples[3 * i + 1], to: this.turnTriples[3 * i + 2], modes: this.turnModes[i] });
        this.forbidden.set(from, list);
      }
    }
    const list = this.forbidden.get(fromEdge);
    return list !== undefined && list.some((turn) => turn.via === via && turn.to === toEdge && (turn.modes & (1 << modeIndex)) !== 0);
  }

  get hasTurnRestrictions(): boolean {
    return this.turnModes.length > 0;
  }

  private sequences: Array<TurnSequences | null> | null = null;

  /** The via-way restrictions binding a mode (MODES index) as an automaton over directed edges; null when none does. */
  sequencesOf(modeIndex: number): TurnSequences | null {
    if (modeIndex < 0 || this.viaWayModes.length === 0) return null;
    this.sequences ??= MODES.map((_, m) => TurnSequences.of(this.viaWayOffset, this.viaWayEdges, this.viaWayModes, m));
    return this.sequences[modeIndex] ?? null;
  }
}

export interface BuildStats {
  ways: number;
  nodes: number;
  edges: number;
  restrictions_applied: number;
  restrictions_skipped: number;
  /** Via-way restrictions among those applied, and the forbidden edge sequences they became. */
  restrictions_via_way_applied: number;
  via_way_sequences: number;
}

/** Builds the graph from a road dataset's records (any order). */
export function buildRoadGraph(records: Iterable<RoadRecord>): { graph: RoadGraph; stats: BuildStats } {
  const ways: RoadWayRecord[] = [];
  const nodeTags = new Map<number, RoadNodeRecord>();
  const restrictions: TurnRestrictionRecord[] = [];
  for (const record of records) {
    if (record.type === 'way') ways.push(record);
    else if (record.type === 'node') nodeTags.set(record.id, record);
    else restrictions.push(record);
  }
  // A node is a graph node where ways meet or end; the nodes between are geometry.
  const uses = new Map<number, number>();
  for (const way of ways) {
    for (let i = 0; i < way.nodes.length; i++) {
      const id = way.nodes[i];
      const end = i === 0 || i === way.nodes.length - 1;
      uses.set(id, (uses.get(id) ?? 0) + (end ? 2 : 1));
    }
  }
  for (const restriction of restrictions) if (restriction.via_node !== null && uses.has(restriction.via_node)) uses.set(restriction.via_node, 2);
  const index = new Map<number, number>();
  const lat: number[] = [];
  const lng: number[] = [];
  const nodeFlags: number[] = [];
  const flagOf = (id: number) => {
    const tags = nodeTags.get(id)?.tags;
    if (!tags) return 0;
    return (tags.ford === 'yes' ? FLAG_FORD : 0) | (tags.flood_prone === 'yes' ? FLAG_FLOOD_PRONE : 0) | (tags.highway === 'traffic_signals' ? FLAG_SIGNALS : 0) | (tags.barrier ? FLAG_BARRIER : 0);
  };
  const nodeOf = (id: number, point: [number, number]) => {
    let at = index.get(id);
    if (at === undefined) {
      at = lat.length;
      index.set(id, at);
      lat.push(point[0]);
      lng.push(point[1]);
      nodeFlags.push(flagOf(id));
    }
    return at;
  };

  const infos: WayInfo[] = [];
  const edgeFrom: number[] = [];
  const edgeTo: number[] = [];
  const edgeWay: number[] = [];
  const edgeLength: number[] = [];
  const edgeFlags: number[] = [];
  const geomOffset: number[] = [0];
  const geomLat: number[] = [];
  const geomLng: number[] = [];
  const weights: number[][] = MODES.map(() => []);
  const edgesOfWay = new Map<number, number[]>();
  for (const way of ways) {
    const wayIndex = infos.length;
    infos.push(wayInfo(way));
    const directions = MODES.map((mode) => travelDirection(mode, way.tags));
    const speeds = MODES.map((mode) => speedKmh(mode, way.tags, way.open_road ? 'open_road' : 'urban'));
    let start = 0;
    for (let i = 1; i < way.nodes.length; i++) {
      const last = i === way.nodes.length - 1;
      if (!last && (uses.get(way.nodes[i]) ?? 0) < 2) continue;
      const from = nodeOf(way.nodes[start], way.points[start]);
      const to = nodeOf(way.nodes[i], way.points[i]);
      if (from !== to) {
        let length = 0;
        let flags = 0;
        for (let k = start; k <= i; k++) {
          geomLat.push(way.points[k][0]);
          geomLng.push(way.points[k][1]);
          if (k > start) length += greatCircleM(way.points[k - 1][0], way.points[k - 1][1], way.points[k][0], way.points[k][1]);
          flags |= flagOf(way.nodes[k]) & (FLAG_FORD | FLAG_FLOOD_PRONE);
        }
        const edge = edgeFrom.length;
        geomOffset.push(geomLat.length);
        edgeFrom.push(from);
        edgeTo.push(to);
        edgeWay.push(wayIndex);
        edgeLength.push(length);
        edgeFlags.push(flags | (way.tags.ford === 'yes' ? FLAG_FORD : 0) | (way.tags.flood_prone === 'yes' ? FLAG_FLOOD_PRONE : 0));
        for (const [m, direction] of directions.entries()) {
          const speed = speeds[m];
          const weight = speed === null ? NO_ACCESS : Math.max(1, Math.round((length / (speed / 3.6)) * WEIGHT_UNITS_PER_SECOND));
          weights[m].push(direction === 'both' || direction === 'forward' ? weight : NO_ACCESS, direction === 'both' || direction === 'backward' ? weight : NO_ACCESS);
        }
        const list = edgesOfWay.get(way.id) ?? [];
        list.push(edge);
        edgesOfWay.set(way.id, list);
      }
      start = i;
    }
  }
  const nodeCount = lat.length;
  const edgeCount = edgeFrom.length;
  const incidentOffset = new Int32Array(nodeCount + 1);
  for (let e = 0; e < edgeCount; e++) {
    incidentOffset[edgeFrom[e] + 1]++;
    incidentOffset[edgeTo[e] + 1]++;
  }
  for (let v = 0; v < nodeCount; v++) incidentOffset[v + 1] += incidentOffset[v];
  const fill = incidentOffset.slice(0, nodeCount);
  const incidentEdges = new Int32Array(2 * edgeCount);
  for (let e = 0; e < edgeCount; e++) {
    incidentEdges[fill[edgeFrom[e]]++] = e;
    incidentEdges[fill[edgeTo[e]]++] = e;
  }

  // Turn restrictions with a via node: the from and to edges are the pieces of those ways that touch it.
  const triples: number[] = [];
  const turnModes: number[] = [];
  let skipped = 0;
  let applied = 0;
  const viaWayOffset: number[] = [0];
  const viaWayEdges: number[] = [];
  const viaWayModes: number[] = [];
  let viaWayApplied = 0;
  const incidentOf = (node: number) => Array.from(incidentEdges.subarray(incidentOffset[node], incidentOffset[node + 1]));
  for (const restriction of restrictions) {
    const modes = restrictionModes(restriction);
    if (restriction.via_node === null && restriction.via_ways.length > 0 && modes !== 0) {
      const sequences = viaWaySequences(restriction, edgesOfWay, edgeFrom, edgeTo, incidentOf);
      if (sequences.length === 0) {
        skipped++;
        continue;
      }
      applied++;
      viaWayApplied++;
      for (const sequence of sequences) {
        viaWayEdges.push(...sequence);
        viaWayOffset.push(viaWayEdges.length);
        viaWayModes.push(modes);
      }
      continue;
    }
    const via = restriction.via_node === null ? undefined : index.get(restriction.via_node);
    if (via === undefined || modes === 0) {
      skipped++;
      continue;
    }
    const touching = (wayId: number) => (edgesOfWay.get(wayId) ?? []).filter((e) => edgeFrom[e] === via || edgeTo[e] === via);
    const fromEdges = touching(restriction.from);
    const toEdges = touching(restriction.to);
    if (fromEdges.length === 0 || toEdges.length === 0) {
      skipped++;
      continue;
    }
    applied++;
    const forbidden = restriction.restriction.startsWith('only_')
      ? incidentOf(via).filter((e) => !toEdges.includes(e))
      : toEdges;
    for (const from of fromEdges) {
      for (const to of forbidden) {
        triples.push(from, via, to);
        turnModes.push(modes);
      }
    }
  }

  const graph = new RoadGraph(
    Float64Array.from(lat),
    Float64Array.from(lng),
    Uint8Array.from(nodeFlags),
    Int32Array.from(edgeFrom),
    Int32Array.from(edgeTo),
    Int32Array.from(edgeWay),
    Float64Array.from(edgeLength),
    Uint8Array.from(edgeFlags),
    Int32Array.from(geomOffset),
    Float64Array.from(geomLat),
    Float64Array.from(geomLng),
    weights.map((list) => Int32Array.from(list)),
    Int32Array.from(triples),
    Uint8Array.from(turnModes),
    infos,
    incidentOffset,
    incidentEdges,
    Int32Array.from(viaWayOffset),
    Int32Array.from(viaWayEdges),
    Uint8Array.from(viaWayModes),
  );
  return {
    graph,
    stats: { ways: ways.length, nodes: nodeCount, edges: edgeCount, restrictions_applied: applied, restrictions_skipped: skipped, restrictions_via_way_applied: viaWayApplied, via_way_sequences: viaWayModes.length },
  };
}

/**
 * A via-way restriction as forbidden sequences of directed edges (2e+dir):
 * the `from` way's piece entering the via chain, the chain (the fewest via
 * edges joining the node where `from` meets it to a node where `to` leaves
 * it, using every via way), then the way out — the `to` way's piece for
 * `no_*`, every other way out for `only_*` (the choice is made where the
 * chain ends, as OSRM and GraphHopper do). None when the members do not
 * connect that way.
 */
function viaWaySequences(
  restriction: TurnRestrictionRecord,
  edgesOfWay: Map<number, number[]>,
  edgeFrom: number[],
  edgeTo: number[],
  incidentOf: (node: number) => number[],
): number[][] {
  const viaEdges = new Set(restriction.via_ways.flatMap((way) => edgesOfWay.get(way) ?? []));
  const fromEdges = (edgesOfWay.get(restriction.from) ?? []).filter((e) => !viaEdges.has(e));
  const toEdges = (edgesOfWay.get(restriction.to) ?? []).filter((e) => !viaEdges.has(e));
  if (viaEdges.size === 0 || fromEdges.length === 0 || toEdges.length === 0) return [];
  const wayOfVia = new Map<number, number>();
  for (const way of restriction.via_ways) for (const e of edgesOfWay.get(way) ?? []) wayOfVia.set(e, way);
  const other = (edge: number, node: number) => (edgeFrom[edge] === node ? edgeTo[edge] : edgeFrom[edge]);
  const directedOut = (edge: number, node: number) => 2 * edge + (edgeFrom[edge] === node ? 0 : 1);
  const sequences: number[][] = [];
  for (const from of fromEdges) {
    for (const start of [edgeFrom[from], edgeTo[from]]) {
      // Breadth first over via edges from where `from` meets the chain.
      const reached = new Map<number, number[]>([[start, []]]);
      const queue = [start];
      for (let head = 0; head < queue.length; head++) {
        const node = queue[head];
        for (const edge of incidentOf(node)) {
          if (!viaEdges.has(edge)) continue;
          const next = other(edge, node);
          if (reached.has(next)) continue;
          reached.set(next, [...reached.get(node)!, directedOut(edge, node)]);
          queue.push(next);
        }
      }
      let best: { end: number; chain: number[] } | null = null;
      for (const [end, chain] of reached) {
        if (chain.length === 0 || (best && best.chain.length <= chain.length)) continue;
        if (!toEdges.some((e) => edgeFrom[e] === end || edgeTo[e] === end)) continue;
        const ways = new Set(chain.map((directed) => wayOfVia.get(directed >> 1)));
        if (ways.size !== restriction.via_ways.length) continue;
        best = { end, chain };
      }
      if (!best) continue;
      const { end, chain } = best;
      const entry = 2 * from + (edgeTo[from] === start ? 0 : 1);
      const lastVia = chain[chain.length - 1] >> 1;
      const exits = restriction.restriction.startsWith('only_')
        ? incidentOf(end).filter((e) => e !== lastVia && !toEdges.includes(e) && edgeFrom[e] !== edgeTo[e])
        : toEdges.filter((e) => edgeFrom[e] === end || edgeTo[e] === end);
      for (const exit of exits) sequences.push([entry, ...chain, directedOut(exit, end)]);
    }
  }
  return sequences;
}

/** Which of our modes a restriction binds (bit per MODES index): vehicles, never walkers; `restriction:<vehicle>` narrows, `except` exempts. */
function restrictionModes(restriction: TurnRestrictionRecord): number {
  const vehicles: Record<string, Mode[]> = {
    motorcar: ['driving'], motor_vehicle: ['driving', 'motor_scooter'], vehicle: ['driving', 'motor_scooter', 'bicycle'],
    motorcycle: ['motor_scooter'], moped: ['motor_scooter'], bicycle: ['bicycle'],
  };
  let modes: Mode[] = restriction.only_for === null ? ['driving', 'motor_scooter', 'bicycle'] : (vehicles[restriction.only_for] ?? []);
  for (const exempt of restriction.except) modes = modes.filter((mode) => !(vehicles[exempt] ?? []).includes(mode));
  return modes.reduce((mask, mode) => mask | (1 << MODES.indexOf(mode)), 0);
}

function wayInfo(way: RoadWayRecord): WayInfo {
  const tags = way.tags;
  const lanes = Number.parseInt(tags.lanes ?? '', 10);
  const oneway = travelDirection('driving', tags);
  return {
    osm_id: way.id,
    name: tags.name ?? null,
    ref: tags.ref ?? null,
    highway: tags.highway,
    surface: tags.surface ?? null,
    surface_class: surfaceClass(tags),
    smoothness: tags.smoothness ?? null,
    roundabout: isRoundabout(tags),
    lanes: Number.isFinite(lanes) && lanes > 0 && lanes < 20 ? lanes : null,
    turn_lanes_forward: tags['turn:lanes:forward'] ?? (oneway === 'forward' ? (tags['turn:lanes'] ?? null) : null),
    turn_lanes_backward: tags['turn:lanes:backward'] ?? (oneway === 'backward' ? (tags['turn:lanes'] ?? null) : null),
    maxspeed_kmh: parseMaxspeed(tags.maxspeed),
    bridge: tags.bridge !== undefined && tags.bridge !== 'no',
    tunnel: tags.tunnel !== undefined && tags.tunnel !== 'no',
    ford: tags.ford === 'yes',
    flood_prone: tags.flood_prone === 'yes',
    layer: way.layer ?? 0,
    ...closedFor(tags),
  };
}

function closedFor(tags: RoadWayRecord['tags']): { closed_for?: Partial<Record<Mode, string>> } {
  const closed: Partial<Record<Mode, string>> = {};
  for (const mode of MODES) {
    const restriction = accessRestriction(mode, tags);
    if (restriction) closed[mode] = restriction;
  }
  return Object.keys(closed).length > 0 ? { closed_for: closed } : {};
}
