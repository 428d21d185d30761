import type { RoadRecord, RoadWayRecord } from '../domain/road-records.js';
import { combineLayers, LAYER_WAY_ID_BASE } from './layers.js';
import { prepareGraph } from './prepare.js';
import { LoadedNetwork } from './loaded-network.js';

/** A way along a line of points, node ids from `firstNode`. */
function way(id: number, firstNode: number, points: Array<[number, number]>, tags: Record<string, string>): RoadWayRecord {
  return { type: 'way', id, tags, nodes: points.map((_, i) => firstNode + i), points };
}

// A detailed "city": a grid of residential streets around (5.60, -0.20), about 4 km across, plus a stray way touching nothing.
const city: RoadRecord[] = [];
for (let i = 0; i <= 8; i++) {
  const lat = 5.58 + i * 0.005;
  city.push(way(100 + i, 1000 + i * 100, Array.from({ length: 9 }, (_, k) => [lat, -0.22 + k * 0.005] as [number, number]), { highway: 'residential', name: `Street ${i}` }));
}
// Crossing streets share the grid's nodes.
for (let k = 0; k <= 8; k++) {
  const nodes = Array.from({ length: 9 }, (_, i) => 1000 + i * 100 + k);
  city.push({ type: 'way', id: 200 + k, tags: { highway: 'residential', name: `Avenue ${k}` }, nodes, points: nodes.map((_, i) => [5.58 + i * 0.005, -0.22 + k * 0.005] as [number, number]) });
}
city.push(way(300, 5000, [[5.605, -0.185], [5.606, -0.185]], { highway: 'service' }));
// The backbone: a trunk road from far west (−0.5) through the city to far east (+0.1), on its own nodes.
const backbone: RoadRecord[] = [way(8_000_000_000_000, 8_000_000_000_000, Array.from({ length: 61 }, (_, k) => [5.6, -0.5 + k * 0.01] as [number, number]), { highway: 'trunk', ref: 'N1', surface: 'asphalt' })];

describe('layered road datasets (docs/adr/0035)', () => {
  it('clips the backbone inside the detailed coverage and joins each clipped end to the main detailed network', () => {
    const { records, stats } = combineLayers([{ role: 'detailed', records: city }, { role: 'backbone', records: backbone }]);
    const ways = records.filter((record): record is RoadWayRecord => record.type === 'way');
    const trunk = ways.filter((record) => record.tags.ref === 'N1' && record.nodes.length > 2);
    expect(trunk).toHaveLength(2);
    // No backbone point is left inside the city's box.
    for (const piece of trunk) for (const [, lng] of piece.points) expect(lng < -0.225 || lng > -0.175).toBe(true);
    expect(stats.connectors).toBe(2);
    const connectors = ways.filter((record) => record.id >= LAYER_WAY_ID_BASE && record.nodes.length === 2);
    // Joined to the grid, never to the stray service way.
    for (const connector of connectors) expect(connector.nodes[1]).toBeLessThan(5000);
    expect(trunk.every((piece) => piece.layer === 1 && piece.open_road)).toBe(true);
    expect(ways.filter((record) => record.id < 1000).every((record) => record.layer === 0)).toBe(true);
  });

  it('routes from a city street out onto the backbone and across the city on its streets', () => {
    const { records } = combineLayers([{ role: 'detailed', records: city }, { role: 'backbone', records: backbone }]);
    const net = new LoadedNetwork(prepareGraph(records, 'test'), 'test');
    try {
      const from = net.snap(5.6, -0.45, 'driving')!;
      const to = net.snap(5.6, 0.05, 'driving')!;
      const leg = net.leg(from, to, 'driving')!;
      expect(leg).not.toBeNull();
      const layers = new Set(leg.edges.map((edge) => net.graph.ways[net.graph.edgeWay[edge]].layer));
      expect([...layers].sort()).toEqual([0, 1]);
      // Walking too: the join is on a street every mode may use.
      expect(net.leg(net.snap(5.6, -0.45, 'walking')!, net.snap(5.6, 0.05, 'walking')!, 'walking')).not.toBeNull();
    } finally {
      net.metrics.stop();
    }
  });

  it('keeps the backbone whole where no detailed layer has coverage, and the first extract wins a way two share', () => {
    const alone = combineLayers([{ role: 'backbone', records: backbone }]);
    expect(alone.records).toHaveLength(1);
    expect(alone.stats.connectors).toBe(0);
    const twice = combineLayers([{ role: 'detailed', records: city }, { role: 'detailed', records: [city[0]] }]);
    expect(twice.records.filter((record) => record.type === 'way' && record.id === 100)).toHaveLength(1);
  });
});
