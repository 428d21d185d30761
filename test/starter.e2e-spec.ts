import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { PMTiles } from 'pmtiles';
import { readManifest, verifyPack } from '../libs/starter/src/index.js';
import { tileOf } from '../libs/tiles/src/index.js';
import { decodeVectorTile } from '../libs/tiles/src/testing/pmtiles-reader.js';
import { eventually } from './support/boot.js';
import { FileDatasetStore } from '../libs/platform/src/index.js';

/**
 * Issue #11, "Ghana out of the box": `npm start` on an empty DATA_DIR imports
 * the committed starter pack (starter/ghana) and then answers search,
 * landmarks, resolve and transit (issue #17) with data; /health answers 503 until it is live; a
 * restart imports nothing. The real entry point, as `npm start` runs it
 * (compiled, found from dist/), and no ../shared/data is read.
 */
const root = path.resolve(import.meta.dirname, '..');

interface Running {
  child: ChildProcess;
  url: Promise<string>;
  lines: Array<Record<string, unknown>>;
}

function start(dataDir: string): Running {
  const child = spawn(process.execPath, ['scripts/start.mjs', 'all-in-one'], {
    cwd: root,
    // GRAPHHOPPER_URL off: CI sets it for the engine contract suite; this test is about the embedded engine on the starter roads.
    env: { ...process.env, NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info', STARTER_DATA: 'true', GRAPHHOPPER_URL: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: Array<Record<string, unknown>> = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    try {
      lines.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // not a log line
    }
  });
  const url = eventually(async () => lines.find((line) => line.msg === 'listening')?.url as string | undefined, 90_000);
  return { child, url, lines };
}

async function stop(running: Running): Promise<number | null> {
  const exit = new Promise<number | null>((resolve) => running.child.once('exit', (code) => resolve(code)));
  running.child.kill('SIGTERM');
  return exit;
}

async function healthy(url: string): Promise<void> {
  await eventually(async () => ((await fetch(`${url}/health`)).status === 200 ? true : undefined), 120_000);
}

const versions = async (dataDir: string) => {
  const store = new FileDatasetStore(path.join(dataDir, 'reference'));
  return Object.fromEntries(await Promise.all(['boundaries', 'places/geonames', 'places/osm', 'roads', 'transit/gtfs'].map(async (dataset) => [dataset, await store.currentVersion(dataset)])));
};

describe('the Ghana starter pack on first start', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'location-api-starter-'));
  let service: Running | undefined;
  let url: string;
  let key: string;

  beforeAll(async () => {
    expect(readdirSync(dataDir)).toEqual([]);
    const started = Date.now();
    service = start(dataDir);
    url = await service.url;
    const listening = Date.now();
    // Listening, and still importing: not ready, and saying why.
    const early = await fetch(`${url}/health`);
    expect(early.status).toBe(503);
    expect(await early.json()).toEqual({ status: 'starting', pending: ['starter_data'] });
    await healthy(url);
    const ready = Date.now();
    // Logged before readiness is released; the pipe may deliver the line a moment after /health said 200.
    const summary = await eventually(async () => service!.lines.find((line) => line.msg === 'starter data imported'));
    console.log(`first start from an empty DATA_DIR: listening after ${listening - started} ms, healthy after ${ready - started} ms (starter import ${String(summary.import_ms)} ms, loaded ${String(summary.ms)} ms after bootstrap)`);
    const signup = await fetch(`${url}/v2/self/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Akosua', email: `akosua-${Date.now()}@example.com` }) });
    key = ((await signup.json()) as { data: { key: string } }).data.key;
  }, 180_000);

  afterAll(async () => {
    if (service) await stop(service);
  });

  const get = async <T>(pathAndQuery: string): Promise<T> => {
    const response = await fetch(`${url}${pathAndQuery}`, { headers: { 'x-api-key': key } });
    expect({ path: pathAndQuery, status: response.status }).toEqual({ path: pathAndQuery, status: 200 });
    return ((await response.json()) as { data: T }).data;
  };

  it('logs each dataset it imports with its count, and the total', () => {
    const imported = service!.lines.filter((line) => line.msg === 'starter dataset imported');
    expect(imported.map((line) => [line.kind, line.dataset])).toEqual([
      ['boundaries', 'boundaries'],
      ['places', 'places/geonames'],
      ['landmarks', 'places/osm'],
      ['roads', 'roads'],
      ['roads-backbone', 'roads-backbone'],
      ['transit', 'transit/gtfs'],
    ]);
    expect(imported.map((line) => line.records)).toEqual([276, 19_028, expect.any(Number), expect.any(Number), expect.any(Number), expect.any(Number)]);
    expect(imported[2].records).toBeGreaterThan(10_000);
    expect(service!.lines.find((line) => line.msg === 'starter data imported')).toMatchObject({ records: expect.any(Number), import_ms: expect.any(Number), ms: expect.any(Number) });
  });

  it('finds "Makola" with its region and the attribution of its source', async () => {
    const page = await get<{ items: Array<{ name: string; region: string | null; district: string | null; source: string; lat: number; lng: number }>; attribution: string[] }>('/v2/search?q=Makola');
    expect(page.items.length).toBeGreaterThan(0);
    expect(page.items[0].name).toMatch(/Makola/);
    const market = page.items.find((item) => item.name === 'Makola Market')!;
    expect(market).toMatchObject({ region: 'Greater Accra', source: 'osm' });
    expect(market.lat).toBeCloseTo(5.547, 2);
    expect(page.attribution).toContain('© OpenStreetMap contributors');
  });

  it('lists landmarks in a central Accra bbox, with their attribution', async () => {
    const [north, south, east, west] = [5.57, 5.54, -0.17, -0.21];
    const page = await get<{ items: Array<{ name: string; lat: number; lng: number; source: string; region: string | null }>; attribution: string[] }>(`/v2/landmarks/geocode?bbox=${north},${south},${east},${west}&limit=50`);
    expect(page.items).toHaveLength(50);
    for (const item of page.items) {
      expect(item.lat).toBeGreaterThanOrEqual(south);
      expect(item.lat).toBeLessThanOrEqual(north);
      expect(item.lng).toBeGreaterThanOrEqual(west);
      expect(item.lng).toBeLessThanOrEqual(east);
    }
    expect(page.items.every((item) => item.region === 'Greater Accra')).toBe(true);
    expect(page.attribution).toContain('© OpenStreetMap contributors');
  });

  it('resolves a place name to a point in Ghana', async () => {
    const answer = await get<{ lat: number; lng: number; precision: string; label: string | null; meta: { matched_by: string; attribution: string[] } }>('/v2/address/resolve?address=Kaneshie%20Market');
    expect(answer.meta.matched_by).toBe('place_search');
    expect(['place', 'structure']).toContain(answer.precision);
    expect(answer.lat).toBeCloseTo(5.57, 1);
    expect(answer.lng).toBeCloseTo(-0.23, 1);
    expect(answer.meta.attribution.length).toBeGreaterThan(0);
  });

  it('routes across Accra on the starter roads, narrating by the starter landmarks', async () => {
    const response = await fetch(`${url}/v2/route`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify({ from: { lat: 5.556, lng: -0.233 }, to: { lat: 5.57, lng: -0.18 }, narration: 'landmark', mode: 'okada' }),
    });
    expect(response.status).toBe(200);
    const route = ((await response.json()) as { data: { mode: string; distance_m: number; steps: Array<{ landmark: unknown }> } }).data;
    expect(route.mode).toBe('motor_scooter');
    expect(route.distance_m).toBeGreaterThan(5000);
    expect(route.steps.some((step) => step.landmark)).toBe(true);
    expect(service!.lines.find((line) => line.msg === 'road network loaded')).toMatchObject({ prepared: true });
  });

  it('plans a trotro trip across Accra from the 2019 feed, saying the timetable is out of date', async () => {
    const response = await fetch(`${url}/v2/route/transit`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      // Kaneshie market to Accra Central (Makola), a weekday morning.
      body: JSON.stringify({ from: { lat: 5.5687, lng: -0.2364 }, to: { lat: 5.5477, lng: -0.2049 }, date: '2026-11-24', time: '08:00' }),
    });
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: { itineraries: Array<{ walk_only: boolean; legs: Array<{ mode: string }> }>; no_transit: boolean; note: string; timetable_out_of_date: boolean } };
    expect(data.timetable_out_of_date).toBe(true);
    expect(data.note).toContain('2020-01-31');
    expect(data.no_transit).toBe(false);
    expect(data.itineraries.some((itinerary) => !itinerary.walk_only && itinerary.legs.some((leg) => leg.mode === 'transit'))).toBe(true);
    const board = await fetch(`${url}/v2/transit/departures?lat=5.5687&lng=-0.2364&radius_m=500&date=2026-11-24&time=08:00`);
    expect(board.status).toBe(200);
    expect(((await board.json()) as { data: { lines: unknown[] } }).data.lines.length).toBeGreaterThan(0);
  });

  it('builds the starter basemap (docs/adr/0027) and serves street-level tiles of Accra from /v2/tiles/starter', async () => {
    const built = service!.lines.find((line) => line.msg === 'starter basemap built');
    expect(built).toMatchObject({ tiles: expect.any(Number), bytes: expect.any(Number) });
    console.log(`starter basemap built in a worker thread: ${String(built!.tiles)} tiles, ${String(built!.bytes)} bytes, ${String(built!.glyph_ranges)} glyph ranges, ${String(built!.ms)} ms ${JSON.stringify(built!.phases_ms)}`);
    const archives = await get<{ items: Array<{ name: string; pmtiles: { tile_type: string; max_zoom: number } | null }> }>('/v2/tiles');
    expect(archives.items.find((archive) => archive.name === 'starter')?.pmtiles).toMatchObject({ tile_type: 'mvt', max_zoom: 14 });
    // The console's reader, by HTTP range with the key, as MapLibre reads it.
    const reader = new PMTiles({
      getKey: () => `${url}/v2/tiles/starter`,
      getBytes: async (offset, length) => {
        const response = await fetch(`${url}/v2/tiles/starter`, { headers: { 'x-api-key': key, range: `bytes=${offset}-${offset + length - 1}` } });
        expect(response.status).toBe(206);
        return { data: await response.arrayBuffer(), etag: response.headers.get('etag') ?? undefined };
      },
    });
    const [x, y] = tileOf(-0.2049, 5.5477, 14); // Makola
    const tile = await reader.getZxy(14, x, y);
    const roads = decodeVectorTile(tile!.data).roads;
    expect(roads.length).toBeGreaterThan(0);
    expect(roads.some((road) => ['primary', 'secondary', 'tertiary', 'trunk', 'minor'].includes(String(road.properties.class)))).toBe(true);
    expect(((await reader.getMetadata()) as { attribution: string }).attribution).toContain('© OpenStreetMap contributors');
  });

  it('imports nothing on a restart, and is ready at once', async () => {
    const before = await versions(dataDir);
    expect(Object.values(before).every((version) => version !== null)).toBe(true);
    expect(await stop(service!)).toBe(0);
    service = start(dataDir);
    url = await service.url;
    await healthy(url);
    expect(service.lines.filter((line) => String(line.msg).startsWith('starter data'))).toEqual([]);
    // The basemap is there: not built again.
    expect(service.lines.filter((line) => String(line.msg).startsWith('starter basemap'))).toEqual([]);
    // The road graph prepared on first start is read back, not prepared again.
    expect(await eventually(async () => service!.lines.find((line) => line.msg === 'road network loaded'))).toMatchObject({ prepared: false });
    expect(await versions(dataDir)).toEqual(before);
    const page = await get<{ items: unknown[] }>('/v2/search?q=Makola');
    expect(page.items.length).toBeGreaterThan(0);
  }, 120_000);
});

describe('npm run ops -- starter:build', () => {
  const ops = (...args: string[]) =>
    spawnSync(process.execPath, ['scripts/start.mjs', 'ops', ...args], { cwd: root, env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent' }, encoding: 'utf8', timeout: 60_000 });

  it('builds a pack from the given recipe and sources, step by step on stderr, a summary on stdout', async () => {
    const work = mkdtempSync(path.join(tmpdir(), 'location-api-starter-build-'));
    const recipe = path.join(work, 'recipe.json');
    const licence = { what: 'fixture', origin: 'fixture', licence: 'CC BY 4.0', licence_url: 'https://creativecommons.org/licenses/by/4.0/', attribution: 'GeoNames (geonames.org), CC BY 4.0' };
    writeFileSync(recipe, JSON.stringify({ name: 'sample', title: 'Sample', covers: 'A sample.', sources: [{ role: 'geonames', file: 'geonames-sample.txt', ...licence }] }));
    const out = path.join(work, 'pack');
    const result = ops('starter:build', out, '--recipe', recipe, '--sources', path.join(root, 'libs/places/src/__fixtures__'));
    expect({ status: result.status, stderr: result.stderr }).toMatchObject({ status: 0 });
    expect(result.stderr).toContain('places: geonames-sample.txt → places/geonames-sample.txt.gz (18 rows, unchanged)');
    expect(result.stdout).toMatch(/sample pack in .*: 4 files/);
    expect(result.stdout).toContain('places\tplaces/geonames\trows 18');
    const manifest = await readManifest(out);
    expect(await verifyPack(out, manifest)).toEqual([]);
    expect(readFileSync(path.join(out, 'recipe.json'), 'utf8')).toBe(readFileSync(recipe, 'utf8'));
  }, 90_000);

  it('answers 64 with the usage for bad arguments, and 1 naming a missing source', () => {
    const usage = ops('starter:build');
    expect(usage.status).toBe(64);
    expect(usage.stderr).toContain('usage: npm run ops -- starter:build DIR');
    const missing = ops('starter:build', mkdtempSync(path.join(tmpdir(), 'location-api-starter-build-')), '--sources', '/nonexistent');
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/ghana-places\/gha_adm1_regions.geojson \(boundaries\): not found under \/nonexistent/);
    expect(existsSync('/nonexistent')).toBe(false);
  }, 90_000);
});

describe('npm run ops -- starter:basemap', () => {
  it('builds the starter basemap where it is told, phase by phase on stderr, a summary on stdout', () => {
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'location-api-basemap-')), 'starter.pmtiles');
    // DATA_DIR: where the label glyphs go (docs/adr/0037).
    const env = { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: path.dirname(out) };
    const result = spawnSync(process.execPath, ['scripts/start.mjs', 'ops', 'starter:basemap', '--out', out], { cwd: root, env, encoding: 'utf8', timeout: 60_000 });
    expect({ status: result.status, stderr: result.stderr }).toMatchObject({ status: 0 });
    expect(result.stderr.split('\n').filter((line) => line.startsWith('starter:basemap:'))).toEqual([
      'starter:basemap: reading roads…',
      'starter:basemap: reading boundaries…',
      'starter:basemap: reading places…',
      'starter:basemap: tiling…',
      'starter:basemap: writing…',
      'starter:basemap: glyphs…',
    ]);
    process.stderr.write(result.stdout);
    expect(result.stdout).toMatch(/^starter:basemap: .*starter\.pmtiles: \d+ tiles, \d+\.\d\d MB, 3657 roads, \d+ national road pieces, 276 boundaries, \d+ places, \d+ water names, [1-9]\d* glyph ranges drawn; \d+ ms \(read \d+, tile \d+, write \d+, glyphs \d+\)\n$/);
    expect(readdirSync(path.join(path.dirname(out), 'glyphs'))).toEqual(['Noto Sans Bold', 'Noto Sans Italic', 'Noto Sans Regular']);
    expect(readFileSync(out).subarray(0, 7).toString()).toBe('PMTiles');
  }, 90_000);
});
