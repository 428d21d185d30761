import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { FileDatasetStore } from '../../../platform/src/index.js';
import { writePbf } from '../../../reference-data/src/osm/testing/pbf-writer.js';
import { EmbeddedEngine } from '../engine/embedded-engine.js';
import { buildRoute } from '../routes/route-builder.js';
import { RoadNetwork } from '../public/road-network.js';
import type { RoadRecord, RoadWayRecord, TurnRestrictionRecord } from '../domain/road-records.js';
import { importRoads, ROAD_DATASET } from '../public/import-roads.js';

const fixture = path.join(import.meta.dirname, '../__fixtures__/junction.osm');
const silent = { info: () => undefined, error: () => undefined };

function freshStore(): FileDatasetStore {
  return new FileDatasetStore(path.join(mkdtempSync(path.join(tmpdir(), 'roads-')), 'reference'));
}

async function recordsOf(store: FileDatasetStore): Promise<RoadRecord[]> {
  const records: RoadRecord[] = [];
  for await (const record of store.records<RoadRecord>((await store.current(ROAD_DATASET))!)) records.push(record);
  return records;
}

/** The fixture as PBF, from the same XML (nodes, ways, relations), so both readers are held to one answer. */
function asPbf(file: string): string {
  const xml = readFileSync(fixture, 'utf8');
  const tags = (body: string) => Object.fromEntries([...body.matchAll(/<tag k="([^"]+)" v="([^"]*)"\/>/g)].map((m) => [m[1], m[2]]));
  const nodes = [...xml.matchAll(/<node id="(\d+)" lat="([\d.-]+)" lon="([\d.-]+)"(?:\/>|>(.*?)<\/node>)/gs)].map((m) => ({ id: Number(m[1]), lat: Number(m[2]), lng: Number(m[3]), tags: m[4] ? tags(m[4]) : undefined }));
  const ways = [...xml.matchAll(/<way id="(\d+)">(.*?)<\/way>/gs)].map((m) => ({ id: Number(m[1]), refs: [...m[2].matchAll(/<nd ref="(\d+)"\/>/g)].map((r) => Number(r[1])), tags: tags(m[2]) }));
  const relations = [...xml.matchAll(/<relation id="(\d+)">(.*?)<\/relation>/gs)].map((m) => ({
    id: Number(m[1]),
    members: [...m[2].matchAll(/<member type="(\w+)" ref="(\d+)" role="(\w*)"\/>/g)].map((r) => ({ type: r[1] as 'way' | 'node', ref: Number(r[2]), role: r[3] })),
    tags: tags(m[2]),
  }));
  writePbf(file, { nodes, ways, relations }, { compress: true });
  return file;
}

describe('import:roads', () => {
  it('keeps the routable ways with the tags routing needs, the flagged nodes and the turn restrictions, from XML and from PBF alike', async () => {
    const fromXml = freshStore();
    const xml = await importRoads(fromXml, fixture);
    expect(xml.stats).toMatchObject({ road_ways: 6, restrictions: 2, restrictions_via_way: 1, tagged_nodes: 2, fords: 1, oneway: 1, with_turn_lanes: 1, with_maxspeed: 1 });
    const records = await recordsOf(fromXml);
    const ways = records.filter((record): record is RoadWayRecord => record.type === 'way');
    expect(ways.map((way) => way.id).sort()).toEqual([101, 102, 103, 104, 105, 106]);
    expect(ways.find((way) => way.id === 101)).toMatchObject({ nodes: [3, 8, 1], points: [[5.599, -0.2], [5.5995, -0.2], [5.6, -0.2]], tags: { 'turn:lanes:forward': 'left|through;right', lanes: '2' } });
    const restriction = records.find((record): record is TurnRestrictionRecord => record.type === 'restriction' && record.id === 201);
    expect(restriction).toEqual({ type: 'restriction', id: 201, restriction: 'no_right_turn', only_for: null, except: [], from: 101, via_node: 1, via_ways: [], to: 103 });

    const fromPbf = freshStore();
    const pbf = await importRoads(fromPbf, asPbf(path.join(mkdtempSync(path.join(tmpdir(), 'pbf-')), 'junction.osm.pbf')));
    expect(pbf.stats).toEqual(xml.stats);
    expect(await recordsOf(fromPbf)).toEqual(records);
  });

  it('refuses a file without roads rather than replacing the network with nothing', async () => {
    const store = freshStore();
    await expect(importRoads(store, path.join(import.meta.dirname, '../../../places/src/__fixtures__/landmarks-sample.osm'))).rejects.toThrow(/no routable highway way/);
    expect(await store.currentVersion(ROAD_DATASET)).toBeNull();
  });

  it('routes around a forbidden turn for vehicles, not for walkers, and honours a contraflow one-way', async () => {
    const store = freshStore();
    await importRoads(store, fixture);
    const network = new RoadNetwork(store, path.join(path.dirname(store.root), 'graphs'), silent, 0);
    await network.start();
    const engine = new EmbeddedEngine(() => network.current());
    const south = { lat: 5.5991, lng: -0.2 };
    const east = { lat: 5.6, lng: -0.1991 };
    const car = engine.routeNow({ points: [south, east], mode: 'driving', alternatives: 0 }).paths[0];
    const walker = engine.routeNow({ points: [south, east], mode: 'walking', alternatives: 0 }).paths[0];
    const names = (path: typeof car) => [...new Set(path.legs[0].spans.map((span) => span.road.name))];
    expect(names(walker)).toEqual(['South Road', 'East Road']);
    expect(names(car)).toEqual(['South Road', 'North Road', 'Link', 'East Road']);
    expect(car.distance_m).toBeGreaterThan(walker.distance_m * 1.5);
    // West Road is one-way towards the crossroads: a car from its far end drives it, a car to it goes round.
    const west = { lat: 5.6, lng: -0.2009 };
    const north = { lat: 5.6009, lng: -0.2 };
    expect(names(engine.routeNow({ points: [west, north], mode: 'driving', alternatives: 0 }).paths[0])).toEqual(['West Road', 'North Road']);
    expect(names(engine.routeNow({ points: [north, west], mode: 'driving', alternatives: 0 }).paths[0])).toEqual(['North Road', 'Back Lane', 'West Road']);
    // The tags reach the path: lanes on the approach, the ford on Back Lane, the unpaved surface.
    const round = engine.routeNow({ points: [north, west], mode: 'driving', alternatives: 0 }).paths[0].legs[0].spans;
    expect(round.find((span) => span.road.name === 'Back Lane')?.road).toMatchObject({ ford: true, surface_class: 'unpaved' });
    expect(car.legs[0].spans[0].road.turn_lanes).toBe('left|through;right');

    // Our layer over the path: lanes on the step whose manoeuvre the tagged approach leads to, the ford counted, the unknown surface owned up to.
    const straight = buildRoute(engine.routeNow({ points: [south, north], mode: 'driving', alternatives: 0 }).paths[0], { mode: 'driving', narration: 'street', landmarks: null });
    expect(straight.steps.map((step) => [step.turn_class, step.name])).toEqual([['depart', 'South Road'], ['straight', 'North Road'], ['arrive', 'North Road']]);
    expect(straight.steps[1].lanes).toEqual([{ indications: ['left'], valid: false }, { indications: ['straight', 'right'], valid: true }]);
    expect(straight.steps[0].lanes).toBeUndefined();
    expect(straight).toMatchObject({ flood_crossings: 0, has_unpaved: false, unpaved_distance_m: 0 });
    const wet = buildRoute(engine.routeNow({ points: [north, west], mode: 'driving', alternatives: 0 }).paths[0], { mode: 'driving', narration: 'street', landmarks: null });
    expect(wet.flood_crossings).toBe(1);
    expect(wet.unpaved_distance_m).toBeGreaterThan(100);
    expect(wet.has_unpaved).toBe(true);
    // Along Link (residential, no surface tag) most of the way: whether the route is all paved is unknown, so has_unpaved is left out.
    const untagged = buildRoute(engine.routeNow({ points: [{ lat: 5.6005, lng: -0.1990 }, north], mode: 'driving', alternatives: 0 }).paths[0], { mode: 'driving', narration: 'street', landmarks: null });
    expect(untagged).not.toHaveProperty('has_unpaved');
    expect(untagged.unpaved_distance_m).toBe(0);
  });

  it('prepares a version once: a restart reads the prepared graph instead of preparing again', async () => {
    const store = freshStore();
    await importRoads(store, fixture);
    const graphs = path.join(path.dirname(store.root), 'graphs');
    const lines: Array<Record<string, unknown>> = [];
    const log = { info: (fields: Record<string, unknown>) => lines.push(fields), error: (fields: Record<string, unknown>) => lines.push(fields) };
    await new RoadNetwork(store, graphs, log, 0).start();
    await new RoadNetwork(store, graphs, log, 0).start();
    expect(lines.filter((line) => line.msg === 'road network loaded').map((line) => line.prepared)).toEqual([true, false]);
    expect(lines.filter((line) => line.msg === 'road graph prepared')).toHaveLength(1);
    // A damaged file (or one of an older format) is prepared again, not trusted.
    const [file] = readdirSync(graphs).filter((name) => name.endsWith('.bin'));
    writeFileSync(path.join(graphs, file), 'LAPIRG03 not a graph');
    const again = new RoadNetwork(store, graphs, log, 0);
    await again.start();
    expect(again.current()?.graph.edgeCount).toBeGreaterThan(0);
    expect(lines.filter((line) => line.msg === 'road network loaded').map((line) => line.prepared)).toEqual([true, false, true]);
  });
});
