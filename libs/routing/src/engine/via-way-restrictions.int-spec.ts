import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { FileDatasetStore } from '../../../platform/src/index.js';
import type { Mode } from '../domain/profiles.js';
import { importRoads } from '../public/import-roads.js';
import { RoadNetwork } from '../public/road-network.js';
import { EmbeddedEngine } from './embedded-engine.js';

const fixture = path.join(import.meta.dirname, '../__fixtures__/via-way.osm');
const silent = { info: () => undefined, error: () => undefined };

/** Points on the fixture's roads (see the drawing in via-way.osm). */
const nearP = { lat: 5.6, lng: -0.2095 };
const nearS = { lat: 5.6028, lng: -0.2 };
const nearZ = { lat: 5.6, lng: -0.1955 };
const nearW = { lat: 5.5972, lng: -0.2 };
const onLoopEast = { lat: 5.599, lng: -0.2045 };

describe('via-way turn restrictions', () => {
  let engine: EmbeddedEngine;
  let network: RoadNetwork;

  const roads = (from: { lat: number; lng: number }, to: { lat: number; lng: number }, mode: Mode) => {
    const path = engine.routeNow({ points: [from, to], mode, alternatives: 0 }).paths[0];
    return path.legs[0].spans.map((span) => span.road.name).filter((name, i, all) => name !== all[i - 1]);
  };

  it('are imported and applied per mode', async () => {
    const store = new FileDatasetStore(path.join(mkdtempSync(path.join(tmpdir(), 'via-way-')), 'reference'));
    const imported = await importRoads(store, fixture);
    expect(imported.stats).toMatchObject({ restrictions: 2, restrictions_via_way: 2 });
    network = new RoadNetwork(store, path.join(path.dirname(store.root), 'graphs'), silent, 0);
    await network.start();
    engine = new EmbeddedEngine(() => network.current());
    // 401 forbids one sequence for cars and motorcycles; 402 (only straight on) forbids the two other ways out of R for bicycles.
    expect(network.current()?.prepared.meta.stats).toMatchObject({ restrictions_applied: 2, restrictions_via_way_applied: 2, via_way_sequences: 3 });
  });

  it('no_*: a car may not turn left onto North Spur coming from Market Road along Centre Street, so it enters Centre Street again from the loop', () => {
    // The cheapest legal route enters the via way from elsewhere (Loop East): one label per edge would have thrown that away.
    expect(roads(nearP, nearS, 'driving')).toEqual(['Market Road', 'Loop West', 'Loop South', 'Loop East', 'Centre Street', 'North Spur']);
    // Walkers are not bound; the restriction forbids only that sequence, not the turn: a car entering Centre Street from the loop turns left.
    expect(roads(nearP, nearS, 'walking')).toEqual(['Market Road', 'Centre Street', 'North Spur']);
    expect(roads(onLoopEast, nearS, 'driving')).toEqual(['Loop East', 'Centre Street', 'North Spur']);
    // Other ways out at R stay open to cars.
    expect(roads(nearP, nearW, 'driving')).toEqual(['Market Road', 'Centre Street', 'South Spur']);
  });

  it('no_*: a motorcycle, barred from the loop, takes the long way round', () => {
    expect(roads(nearP, nearS, 'motor_scooter')).toEqual(['Market Road', 'Ring', 'North Spur']);
    const scooter = engine.routeNow({ points: [nearP, nearS], mode: 'motor_scooter', alternatives: 0 }).paths[0];
    const walker = engine.routeNow({ points: [nearP, nearS], mode: 'walking', alternatives: 0 }).paths[0];
    expect(scooter.distance_m).toBeGreaterThan(walker.distance_m * 1.5);
  });

  it('only_*: a bicycle from Market Road along Centre Street must go straight on to East Street', () => {
    expect(roads(nearP, nearZ, 'bicycle')).toEqual(['Market Road', 'Centre Street', 'East Street']);
    expect(roads(nearP, nearW, 'bicycle')).toEqual(['Market Road', 'Loop West', 'Loop South', 'Loop East', 'Centre Street', 'South Spur']);
    expect(roads(nearP, nearS, 'bicycle')).toEqual(['Market Road', 'Loop West', 'Loop South', 'Loop East', 'Centre Street', 'North Spur']);
    // Entered from the loop, Centre Street leads anywhere.
    expect(roads(onLoopEast, nearW, 'bicycle')).toEqual(['Loop East', 'Centre Street', 'South Spur']);
  });

  it('hold for alternatives and re-weighted queries too (the edge-based search, not only the hierarchy check)', () => {
    const result = engine.routeNow({ points: [nearP, nearS], mode: 'driving', alternatives: 2, constraints: { avoidUnpaved: true } });
    for (const path of result.paths) {
      const names = path.legs[0].spans.map((span) => span.road.name);
      const turn = names.findIndex((name, i) => name === 'North Spur' && names[i - 1] === 'Centre Street');
      if (turn > 0) expect(names.slice(0, turn).includes('Loop East') || names.includes('Ring')).toBe(true);
      expect(names.join(',')).not.toMatch(/Market Road,Centre Street,North Spur/);
    }
    network.stop();
  });
});
