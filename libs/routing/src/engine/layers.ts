import { greatCircleM } from '../../../platform/src/geo/geodesy.js';
import { modeAllowed } from '../domain/profiles.js';
import type { RoadRecord, RoadWayRecord } from '../domain/road-records.js';

/**
 * Layered road datasets (docs/adr/0035): one routing graph from a national
 * backbone (intercity roads, no town streets) and detailed extracts (a city's
 * OSM streets), the detailed data winning where it exists. The backbone is
 * clipped inside every detailed extract's coverage and each clipped end is
 * joined to the extract's main connected network at the boundary, so a route
 * leaves a city's streets onto the trunk road and arrives in another city.
 * Pure: records in, records out, each way marked with the layer it came from.
 */
export interface RoadLayerInput {
  /** `detailed` layers win over `backbone` ones where they have coverage. */
  role: 'detailed' | 'backbone';
  records: Iterable<RoadRecord>;
}

/** Coverage cells (about 1.1 km): a backbone point inside a cell that holds detailed road is dropped. */
export const COVERAGE_CELL_DEG = 0.01;
/** A clipped backbone end joins the nearest detailed junction within this distance; farther, it stays a dead end. */
export const JOIN_MAX_M = 3000;
/** Ids of ways the layering makes (split backbone pieces, connectors): above any OSM id and the backbone's synthetic ones. */
export const LAYER_WAY_ID_BASE = 9_000_000_000_000;

export interface LayerStats {
  backbone_ways_in: number;
  backbone_ways_kept: number;
  backbone_points_clipped: number;
  backbone_pieces: number;
  connectors: number;
  clipped_ends_unjoined: number;
  coverage_cells: number;
}

const cellKey = (lat: number, lng: number) => Math.floor(lat / COVERAGE_CELL_DEG) * 100_000 + Math.floor(lng / COVERAGE_CELL_DEG);

export function combineLayers(layers: readonly RoadLayerInput[]): { records: RoadRecord[]; stats: LayerStats } {
  const stats: LayerStats = { backbone_ways_in: 0, backbone_ways_kept: 0, backbone_points_clipped: 0, backbone_pieces: 0, connectors: 0, clipped_ends_unjoined: 0, coverage_cells: 0 };
  const out: RoadRecord[] = [];
  const seenWays = new Set<number>();
  const detailedWays: RoadWayRecord[] = [];
  const backbone: Array<{ layer: number; records: RoadRecord[] }> = [];
  for (const [layer, input] of layers.entries()) {
    if (input.role === 'backbone') {
      backbone.push({ layer, records: [...input.records] });
      continue;
    }
    for (const record of input.records) {
      if (record.type === 'way') {
        // The same OSM way in two extracts: the first keeps it; shared OSM node ids join the extracts by themselves.
        if (seenWays.has(record.id)) continue;
        seenWays.add(record.id);
        const way = { ...record, layer };
        detailedWays.push(way);
        out.push(way);
      } else out.push(record);
    }
  }
  if (backbone.length === 0) return { records: out, stats };
  // Connectors run into town: urban speeds. The rest of the backbone is the open road between towns.

  const covered = coverage(detailedWays);
  stats.coverage_cells = covered.size;
  const joins = joinCandidates(detailedWays);
  let nextId = LAYER_WAY_ID_BASE;
  for (const { layer, records } of backbone) {
    for (const record of records) {
      if (record.type !== 'way') {
        out.push(record);
        continue;
      }
      stats.backbone_ways_in++;
      const inside = record.points.map(([lat, lng]) => covered.has(cellKey(lat, lng)));
      const clipped = inside.filter(Boolean).length;
      if (clipped === 0) {
        out.push({ ...record, layer, open_road: true });
        stats.backbone_ways_kept++;
        continue;
      }
      stats.backbone_points_clipped += clipped;
      // Runs of points outside coverage; a run's end next to a clipped point is joined to the detailed network.
      let start = -1;
      let first = true;
      for (let i = 0; i <= record.points.length; i++) {
        const outside = i < record.points.length && !inside[i];
        if (outside && start < 0) start = i;
        if (outside || start < 0) continue;
        const end = i - 1;
        if (end > start) {
          out.push({ ...record, id: first ? record.id : nextId++, nodes: record.nodes.slice(start, end + 1), points: record.points.slice(start, end + 1), layer, open_road: true });
          first = false;
          stats.backbone_pieces++;
        }
        for (const at of [start > 0 ? start : -1, end < record.points.length - 1 ? end : -1]) {
          if (at < 0) continue;
          const [lat, lng] = record.points[at];
          const target = joins.nearest(lat, lng);
          if (!target) {
            stats.clipped_ends_unjoined++;
            continue;
          }
          out.push({ type: 'way', id: nextId++, tags: { ...record.tags }, nodes: [record.nodes[at], target.node], points: [[lat, lng], [target.lat, target.lng]], layer, open_road: false });
          stats.connectors++;
        }
        start = -1;
      }
    }
  }
  return { records: out, stats };
}

/**
 * Cells holding detailed road, with the gaps between them filled: a cell
 * counts when detailed cells lie on both sides of it within 3 cells
 * (west and east, or south and north), since a city extract of main roads
 * leaves empty cells between its streets.
 */
function coverage(ways: readonly RoadWayRecord[]): Set<number> {
  const occupied = new Set<number>();
  for (const way of ways) {
    for (let i = 0; i < way.points.length; i++) {
      const [lat, lng] = way.points[i];
      occupied.add(cellKey(lat, lng));
      if (i === 0) continue;
      // Long segments mark the cells they pass through too.
      const [lat0, lng0] = way.points[i - 1];
      const steps = Math.ceil(Math.max(Math.abs(lat - lat0), Math.abs(lng - lng0)) / (COVERAGE_CELL_DEG / 2));
      for (let s = 1; s < steps; s++) occupied.add(cellKey(lat0 + ((lat - lat0) * s) / steps, lng0 + ((lng - lng0) * s) / steps));
    }
  }
  const covered = new Set(occupied);
  const reach = 3;
  const has = (row: number, col: number) => occupied.has(row * 100_000 + col);
  for (const key of occupied) {
    const row = Math.round(key / 100_000);
    const col = key - row * 100_000;
    for (let dr = -reach; dr <= reach; dr++) {
      for (let dc = -reach; dc <= reach; dc++) {
        const r = row + dr;
        const c = col + dc;
        if (has(r, c)) continue;
        const between = (dRow: number, dCol: number) => {
          for (let k = 1; k <= reach; k++) if (has(r + dRow * k, c + dCol * k)) return true;
          return false;
        };
        if ((between(0, -1) && between(0, 1)) || (between(-1, 0) && between(1, 0))) covered.add(r * 100_000 + c);
      }
    }
  }
  return covered;
}

/**
 * Where a clipped backbone end may join: nodes of the detailed layers' largest
 * connected network (an extract is full of ways that touch nothing) on ways
 * every road mode may use, so no mode is cut off at the join (an okada may not
 * take a motorway). A grid of 0.02° cells for the nearest look-up.
 */
function joinCandidates(ways: readonly RoadWayRecord[]) {
  const parent = new Map<number, number>();
  const find = (x: number): number => {
    let root = x;
    while (parent.get(root)! !== root) root = parent.get(root)!;
    while (parent.get(x)! !== root) {
      const next = parent.get(x)!;
      parent.set(x, root);
      x = next;
    }
    return root;
  };
  for (const way of ways) {
    for (const node of way.nodes) if (!parent.has(node)) parent.set(node, node);
    for (let i = 1; i < way.nodes.length; i++) {
      const a = find(way.nodes[i - 1]);
      const b = find(way.nodes[i]);
      if (a !== b) parent.set(a, b);
    }
  }
  const sizes = new Map<number, number>();
  for (const node of parent.keys()) {
    const root = find(node);
    sizes.set(root, (sizes.get(root) ?? 0) + 1);
  }
  let main = -1;
  let best = 0;
  for (const [root, size] of sizes) if (size > best) [main, best] = [root, size];
  const CELL = 0.02;
  const grid = new Map<number, Array<{ node: number; lat: number; lng: number }>>();
  const key = (row: number, col: number) => row * 100_000 + col;
  for (const way of ways) {
    if (!(['driving', 'motor_scooter', 'walking'] as const).every((mode) => modeAllowed(mode, way.tags))) continue;
    for (let i = 0; i < way.nodes.length; i++) {
      if (find(way.nodes[i]) !== main) continue;
      const [lat, lng] = way.points[i];
      const k = key(Math.floor(lat / CELL), Math.floor(lng / CELL));
      const list = grid.get(k) ?? [];
      list.push({ node: way.nodes[i], lat, lng });
      grid.set(k, list);
    }
  }
  const ring = Math.ceil(JOIN_MAX_M / 111_000 / CELL) + 1;
  return {
    nearest(lat: number, lng: number) {
      const row = Math.floor(lat / CELL);
      const col = Math.floor(lng / CELL);
      let found: { node: number; lat: number; lng: number } | null = null;
      let bestM = JOIN_MAX_M;
      for (let dr = -ring; dr <= ring; dr++) {
        for (let dc = -ring; dc <= ring; dc++) {
          for (const candidate of grid.get(key(row + dr, col + dc)) ?? []) {
            const d = greatCircleM(lat, lng, candidate.lat, candidate.lng);
            if (d < bestM) [found, bestM] = [candidate, d];
          }
        }
      }
      return found;
    },
  };
}
