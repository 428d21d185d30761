import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { FileDatasetStore } from '../../../platform/src/index.js';
import { EmbeddedEngine } from '../engine/embedded-engine.js';
import { importRoads } from '../public/import-roads.js';
import { RoadNetwork } from '../public/road-network.js';
import { RoutePlanner } from '../public/route-planner.js';
import type { LatLng } from '../routing-engine.port.js';
import type { WeatherConditions } from '../weather-conditions.port.js';
import type { BuiltRoute } from './route-builder.js';
import { recommendSafer, saferExtraAllowedS } from './safer-routes.js';

const fixture = path.join(import.meta.dirname, '../__fixtures__/wet-crossing.osm');
const silent = { info: () => undefined, error: () => undefined };
const from = { lat: 5.5992, lng: -0.2008 };
const to = { lat: 5.5992, lng: -0.1892 };

/** WeatherConditions with a fixed answer, recording what routing asked. */
function weather(rain: { probability_pct: number; max_mm_per_h: number } | null, alert: string | null) {
  const asked: Array<{ points: LatLng[]; from: Date; to: Date }> = [];
  const conditions: WeatherConditions = {
    rainAlong: async (points, start, end) => {
      asked.push({ points, from: start, to: end });
      return rain;
    },
    wetAlertAlong: () => alert,
  };
  return { conditions, asked };
}

describe('safer routes (issue #16) on a ford and a paved detour', () => {
  let engine: EmbeddedEngine;
  let network: RoadNetwork;

  const plan = async (conditions: WeatherConditions | null, depart_at?: string) => {
    if (!engine) {
      const store = new FileDatasetStore(path.join(mkdtempSync(path.join(tmpdir(), 'wet-')), 'reference'));
      await importRoads(store, fixture);
      network = new RoadNetwork(store, path.join(path.dirname(store.root), 'graphs'), silent, 0);
      await network.start();
      engine = new EmbeddedEngine(() => network.current());
    }
    return new RoutePlanner(engine, network, null, null, conditions).plan({ from, to, mode: 'driving', depart_at });
  };

  it('without weather, or dry and no alert: the fastest road through the ford, no note, nothing recommended', async () => {
    for (const conditions of [null, weather({ probability_pct: 10, max_mm_per_h: 0 }, null).conditions]) {
      const result = await plan(conditions);
      expect(result.route.summary).toMatch(/River Road/);
      expect(result.route).toMatchObject({ recommended: false, recommend_reason: null, flood_crossings: 1, rain_note: null, rain_eta_penalty_s: 0 });
      expect(result.alternatives).toEqual([]);
    }
  });

  it('asks for the rain over the trip from depart_at, at points along the route', async () => {
    const { conditions, asked } = weather(null, null);
    const result = await plan(conditions, '2026-11-23T15:00:00Z');
    expect(asked[0].from.toISOString()).toBe('2026-11-23T15:00:00.000Z');
    expect(asked[0].to.getTime() - asked[0].from.getTime()).toBe(result.route.duration_s * 1000);
    expect(asked[0].points[0]).toEqual({ lat: expect.closeTo(5.6, 2), lng: expect.closeTo(-0.2, 2) });
  });

  it('with a CAP flood alert over the route and no rain: the paved detour wins, recommended, the ford road its alternative', async () => {
    const result = await plan(weather({ probability_pct: 20, max_mm_per_h: 0 }, 'Flood').conditions);
    expect(result.route.summary).toMatch(/Ridge Road/);
    expect(result.route).toMatchObject({ recommended: true, flood_crossings: 0, rain_note: null });
    expect(result.route.recommend_reason).toMatch(/^an active "Flood" alert covers the fastest route: this route avoids 1 ford/);
    expect(result.alternatives.map((route) => [route.summary.includes('River Road'), route.recommended, route.flood_crossings])).toEqual([[true, false, 1]]);
  });

  it('heavy rain: a larger ETA penalty on every route', async () => {
    const result = await plan(weather({ probability_pct: 95, max_mm_per_h: 12 }, null).conditions);
    expect(result.route.recommended).toBe(true);
    for (const route of [result.route, ...result.alternatives]) {
      expect(route.rain_eta_penalty_s).toBe(Math.round(route.duration_s * 0.35));
      expect(route.rain_note).toMatch(/95 % chance, up to 12\.0 mm/);
    }
  });

  it('keeps the fastest, with a warning, when the safer route costs more than the allowed extra time', async () => {
    const route = (duration_s: number, flood_crossings: number) => ({ duration_s, flood_crossings, unpaved_distance_m: 0, has_unpaved: false, recommended: false, recommend_reason: null, rain_note: 'rain', geometry: { type: 'LineString', coordinates: [[0, 0]] }, warnings: [] }) as unknown as BuiltRoute;
    const { conditions } = weather(null, null);
    const fastest = route(1000, 2);
    const slow = route(1000 + saferExtraAllowedS(1000) + 1, 0);
    const outcome = await recommendSafer([fastest, slow], conditions, new Date(), async () => null);
    expect(outcome.routes[0]).toBe(fastest);
    expect(slow.recommended).toBe(false);
    expect(outcome.warning).toMatch(/no safer route within 300 s more/);
    // Within the allowance it wins.
    const fine = route(1000 + saferExtraAllowedS(1000), 0);
    expect((await recommendSafer([fastest, fine], conditions, new Date(), async () => null)).routes[0]).toBe(fine);
    expect(saferExtraAllowedS(100)).toBe(120);
    expect(saferExtraAllowedS(10_000)).toBe(900);
  });
});
