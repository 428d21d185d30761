import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { PNG } from 'pngjs';
import puppeteer, { type Browser, type HTTPRequest, type Page } from 'puppeteer-core';
import { weatherImportCli } from '../libs/weather/src/index.js';
import { describeInBrowser } from './support/browser.js';
import { ADMIN_KEY, bootService, eventually, type Service } from './support/boot.js';
import { capAlert, capExpiresIn } from './support/cap-alert.js';


type Rgb = [number, number, number];
const hex = (colour: string): Rgb => [1, 3, 5].map((at) => parseInt(colour.slice(at, at + 2), 16)) as Rgb;
const near = (a: Rgb, b: Rgb, tolerance: number) => Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2]) < tolerance;
/** console.js: the background, the district fill, and the road classes' colours of the starter basemap. */
const BACKGROUND = hex('#f2efe9');
const DISTRICT = hex('#ebe7dc');
const ROADS = ['#ffffff', '#fff6c8', '#f7d58b', '#f4b26b', '#e8925a', '#d9724a', '#a89f91'].map(hex);

/** The named streets of the starter's Accra roads with a point inside the box: what a map of that place may label. */
function streetNamesWithin(box: { west: number; south: number; east: number; north: number }): Set<string> {
  const xml = gunzipSync(readFileSync(path.resolve(import.meta.dirname, '../starter/ghana/roads/roads.osm.gz'))).toString('utf8');
  const nodes = new Map<string, [number, number]>();
  for (const [, id, lat, lng] of xml.matchAll(/<node id="(\d+)" lat="([-\d.]+)" lon="([-\d.]+)"/g)) nodes.set(id, [Number(lat), Number(lng)]);
  const names = new Set<string>();
  for (const [, body] of xml.matchAll(/<way id="\d+"[^>]*>([\s\S]*?)<\/way>/g)) {
    const name = /<tag k="name" v="([^"]*)"/.exec(body)?.[1];
    if (!name) continue;
    const inside = [...body.matchAll(/<nd ref="(\d+)"/g)].some(([, ref]) => {
      const point = nodes.get(ref);
      return point !== undefined && point[0] >= box.south && point[0] <= box.north && point[1] >= box.west && point[1] <= box.east;
    });
    if (inside) names.add(name.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>'));
  }
  return names;
}

/** `#zoom/lat/lng` of a console address, as numbers. */
const viewOf = (hash: string) => hash.replace(/^#/, '').split('/').map(Number);

/**
 * Issue #19, the developer console, in Debian's chromium: one browser, one
 * page, the panels in turn. The service imports the Ghana starter pack on
 * boot (search, roads, transit, and the vector basemap built from them at
 * import, docs/adr/0027), so the page draws real tiles and real answers.
 */
describeInBrowser('console', 'GET /console in a real browser (chromium via puppeteer-core)', (browserPath) => {
  let service: Service;
  let browser: Browser;
  let page: Page;
  let key: string;
  const errors: string[] = [];
  const glyphResponses: Array<{ url: string; status: number }> = [];
  /** Every API call the page made, and whether it carried a key. */
  const apiRequests: Array<{ url: string; keyed: boolean }> = [];

  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'console-'));
    // Signed checkpoints every second, so the audit panel has signatures to verify.
    service = await bootService({ dataDir, env: { STARTER_DATA: 'true', GRAPHHOPPER_URL: '', AUDIT_CHECKPOINT_INTERVAL_S: '1' } });
    // The import runs in this process (TypeScript sources: the road graph and the basemap are prepared in-process): seconds alone, minutes on a loaded machine.
    await eventually(async () => ((await service.request('GET', '/health')).status === 200 ? true : undefined), 300_000);
    const signup = await service.request('POST', '/v2/self/signup', { body: { name: 'Console', email: 'console@example.com' } });
    key = ((await signup.json()) as { data: { key: string } }).data.key;
    // A CAP alert over central Accra, as `npm run ops -- weather:import` brings it in.
    const cap = path.join(dataDir, 'flood.xml');
    writeFileSync(cap, capAlert({ identifier: 'CONSOLE-1', expires: capExpiresIn(3) }));
    expect(await weatherImportCli(dataDir, [cap], () => {})).toBe(0);
    browser = await puppeteer.launch({
      executablePath: browserPath,
      headless: true,
      // WebGL without a GPU: SwiftShader. No sandbox: CI runs as root in a container.
      args: ['--no-sandbox', '--enable-unsafe-swiftshader', '--use-angle=swiftshader', '--window-size=1000,700'],
    });
    page = await browser.newPage();
    await page.setViewport({ width: 1000, height: 700 });
    page.on('pageerror', (error) => errors.push(String(error)));
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/v2/')) apiRequests.push({ url: request.url(), keyed: Boolean(request.headers()['x-api-key']) });
    });
    page.on('response', (response) => {
      if (response.url().includes('/console/glyphs/')) glyphResponses.push({ url: response.url(), status: response.status() });
    });
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
  }, 360_000);

  afterAll(async () => {
    await browser?.close();
    await service?.close();
  }, 60_000);

  const text = (selector: string) => page.$eval(selector, (element) => element.textContent ?? '');
  const items = (selector: string) => page.$$eval(`${selector} li`, (elements) => elements.map((element) => element.textContent ?? ''));
  /** Waits for the selector's text to match, naming what the page says instead when it does not. */
  async function until(selector: string, pattern: RegExp, timeout = 30_000): Promise<string> {
    try {
      await page.waitForFunction(`new RegExp(${JSON.stringify(pattern.source)}).test(document.querySelector(${JSON.stringify(selector)})?.textContent ?? '')`, { timeout });
    } catch (error) {
      throw new Error(`${(error as Error).message}: ${selector} never matched ${pattern}; status "${await text('#status').catch(() => '?')}"; errors: ${errors.join(' | ')}`);
    }
    return text(selector);
  }
  async function clickMode(mode: string) {
    await page.click(`input[name=mode][value=${mode}]`);
  }
  async function mapBox() {
    return (await (await page.$('#map'))!.boundingBox())!;
  }
  async function mapPixels(): Promise<Rgb[]> {
    const png = PNG.sync.read(Buffer.from(await (await page.$('#map'))!.screenshot({ type: 'png' })));
    const pixels: Rgb[] = [];
    for (let i = 0; i < png.data.length; i += 4) pixels.push([png.data[i], png.data[i + 1], png.data[i + 2]]);
    return pixels;
  }

  it('serves the page without a key, with its content type and a same-origin CSP', async () => {
    const response = await fetch(`${service.url}/console`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
    const script = await fetch(`${service.url}/console/assets/maplibre-gl.mjs`);
    expect(script.headers.get('content-type')).toContain('javascript');
    expect((await fetch(`${service.url}/console/assets/..%2Fpackage.json`)).status).toBe(404);
  });

  it('serves the starter basemap to the console without a key, by byte range only; /v2/tiles stays keyed (interface.md)', async () => {
    const head = await fetch(`${service.url}/console/basemap.pmtiles`, { headers: { range: 'bytes=0-16383' } });
    expect(head.status).toBe(206);
    expect(head.headers.get('content-range')).toMatch(/^bytes 0-16383\/\d+$/);
    const bytes = Buffer.from(await head.arrayBuffer());
    expect(bytes.subarray(0, 7).toString('latin1')).toBe('PMTiles');
    const etag = head.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect((await fetch(`${service.url}/console/basemap.pmtiles`, { headers: { range: 'bytes=0-99', 'if-none-match': etag } })).status).toBe(304);
    // The whole archive, or more than a tile's worth at once, is for keys: 416 with the size, in the envelope.
    const whole = await fetch(`${service.url}/console/basemap.pmtiles`);
    expect(whole.status).toBe(416);
    expect(whole.headers.get('content-range')).toMatch(/^bytes \*\/\d+$/);
    expect(await whole.json()).toMatchObject({ success: false, error: { code: 'RANGE_NOT_SATISFIABLE', message: expect.stringContaining('/v2/tiles/starter') } });
    expect((await fetch(`${service.url}/console/basemap.pmtiles`, { headers: { range: 'bytes=0-2000000' } })).status).toBe(416);
    expect((await fetch(`${service.url}/v2/tiles/starter`, { headers: { range: 'bytes=0-99' } })).status).toBe(401);
  });

  it('opens /console#14/5.56/-0.205 without a key on the starter basemap at that place, credited, its streets labelled', async () => {
    await page.goto(`${service.url}/console#14/5.56/-0.205`);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 }).catch(async (error: Error) => {
      throw new Error(`${error.message}; page says "${await text('#status')}"; errors: ${errors.join(' | ')}`);
    });
    expect(await text('#status')).toContain('Basemap: starter');
    // The address's view, not the archive's centre.
    const view = await page.evaluate(() => {
      const map = (globalThis as unknown as { consoleMap: { getCenter(): { lng: number; lat: number }; getZoom(): number; getBounds(): { getWest(): number; getSouth(): number; getEast(): number; getNorth(): number } } }).consoleMap;
      const bounds = map.getBounds();
      return { lat: map.getCenter().lat, lng: map.getCenter().lng, zoom: map.getZoom(), west: bounds.getWest(), south: bounds.getSouth(), east: bounds.getEast(), north: bounds.getNorth() };
    });
    expect(view.zoom).toBeCloseTo(14, 5);
    expect(view.lat).toBeCloseTo(5.56, 4);
    expect(view.lng).toBeCloseTo(-0.205, 4);
    const credits = await text('.maplibregl-ctrl-attrib');
    expect(credits).toContain('OpenStreetMap');
    expect(credits).toContain('OCHA');
    expect(credits).toContain('The World Bank: Ghana Roads (AICD, 2009)');
    expect(credits).toContain('GeoNames');
    // Street level: district fill under roads drawn in their class colours, nothing blank.
    await page.waitForSelector('.maplibregl-canvas');
    const drawn = await eventually(async () => {
      const pixels = await mapPixels();
      const roads = pixels.filter((pixel) => ROADS.some((colour) => near(pixel, colour, 24))).length / pixels.length;
      const land = pixels.filter((pixel) => near(pixel, DISTRICT, 8)).length / pixels.length;
      const blank = pixels.filter((pixel) => near(pixel, BACKGROUND, 4)).length / pixels.length;
      return roads > 0.01 && land > 0.2 && blank < 0.5 ? { roads, land, blank } : undefined;
    }, 30_000).catch(() => undefined);
    expect(drawn).toBeDefined();
    // The streets labelled are streets of that place: named roads of the starter's Accra extract that reach into the view (a margin of half a view around it).
    const labels = await labelsUntil((found) => (found['street-names']?.length ?? 0) >= 3);
    const streets = [...new Set(labels['street-names'] ?? [])];
    const spanLat = view.north - view.south;
    const spanLng = view.east - view.west;
    const here = streetNamesWithin({ west: view.west - spanLng / 2, south: view.south - spanLat / 2, east: view.east + spanLng / 2, north: view.north + spanLat / 2 });
    process.stderr.write(`console streets at #14/5.56/-0.205: ${JSON.stringify(streets.slice(0, 10))} (${here.size} named streets of the extract in reach)\n`);
    expect(streets.length).toBeGreaterThanOrEqual(3);
    expect(streets.filter((name) => !here.has(name))).toEqual([]);
    // No key was asked for, none was sent, and the page made no API call.
    expect(await page.$eval('#key-needed', (element) => (element as unknown as { hidden: boolean }).hidden)).toBe(true);
    expect(apiRequests).toEqual([]);
  }, 120_000);

  it('keeps #zoom/lat/lng in the address up to date as the map moves, by keyboard too', async () => {
    const hash = () => page.evaluate(() => (globalThis as unknown as { location: { hash: string } }).location.hash);
    const center = () => page.evaluate(() => {
      const map = (globalThis as unknown as { consoleMap: { getCenter(): { lng: number; lat: number }; getZoom(): number } }).consoleMap;
      return { lat: map.getCenter().lat, lng: map.getCenter().lng, zoom: map.getZoom() };
    });
    const before = viewOf(await hash());
    expect(before).toEqual([14, 5.56, -0.205]);
    // The map takes the focus (Tab order: it is focusable) and pans with the arrow keys, then zooms with +.
    await page.focus('.maplibregl-canvas');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowUp');
    const moved = await eventually(async () => {
      const [zoom, lat, lng] = viewOf(await hash());
      return lng > before[2] && lat > before[1] ? [zoom, lat, lng] : undefined;
    }, 15_000);
    const now = await center();
    expect(moved[1]).toBeCloseTo(now.lat, 3);
    expect(moved[2]).toBeCloseTo(now.lng, 3);
    await page.keyboard.press('Equal');
    const zoomed = await eventually(async () => {
      const [zoom] = viewOf(await hash());
      return zoom > 14 ? zoom : undefined;
    }, 15_000);
    expect(zoomed).toBeCloseTo((await center()).zoom, 1);
    // A new address moves the map (back to where the next panels click).
    await page.evaluate(() => {
      (globalThis as unknown as { location: { hash: string } }).location.hash = '#14/5.56/-0.205';
    });
    await eventually(async () => {
      const { lat, lng, zoom } = await center();
      return Math.abs(lat - 5.56) < 1e-4 && Math.abs(lng + 0.205) < 1e-4 && Math.abs(zoom - 14) < 1e-3 ? true : undefined;
    }, 15_000);
    expect(apiRequests).toEqual([]);
  }, 60_000);

  /** The label symbols MapLibre placed on the map now (a symbol is placed only once its glyphs are loaded and laid out), by layer. */
  async function drawnLabels(): Promise<Record<string, string[]>> {
    return page.evaluate(() => {
      const w = globalThis as unknown as { consoleMap: { queryRenderedFeatures(o: { layers: string[] }): Array<{ layer: { id: string }; properties: Record<string, unknown> }> }; consoleLabelLayers: string[] };
      const out: Record<string, string[]> = {};
      for (const feature of w.consoleMap.queryRenderedFeatures({ layers: w.consoleLabelLayers })) {
        (out[feature.layer.id] ??= []).push(String(feature.properties.name ?? feature.properties.ref));
      }
      return out;
    });
  }
  /** Waits until the drawn labels satisfy `enough`, then returns them (the last ones seen if they never do). */
  async function labelsUntil(enough: (labels: Record<string, string[]>) => boolean): Promise<Record<string, string[]>> {
    let last: Record<string, string[]> = {};
    await eventually(async () => {
      last = await drawnLabels();
      return enough(last) ? true : undefined;
    }, 30_000).catch(() => undefined);
    return last;
  }

  it('labels the map with glyphs the console serves: street names in Accra, then places, regions and road refs across Ghana', async () => {
    const view = await page.evaluate(() => {
      const map = (globalThis as unknown as { consoleMap: { getCenter(): { lng: number; lat: number }; getZoom(): number } }).consoleMap;
      return { center: [map.getCenter().lng, map.getCenter().lat], zoom: map.getZoom() };
    });
    const street = await labelsUntil((labels) => (labels['street-names']?.length ?? 0) > 0 && (labels['place-labels-minor']?.length ?? 0) > 0);
    process.stderr.write(`console labels at z${view.zoom} over Accra: ${JSON.stringify(Object.fromEntries(Object.entries(street).map(([layer, names]) => [layer, names.slice(0, 6)])))}\n`);
    expect(street['street-names']?.length).toBeGreaterThan(0);
    expect(street['place-labels-minor']?.length).toBeGreaterThan(0);

    // The whole country at z7: the cities, the regions, and the national roads' refs (N1, N6…), far from Accra's streets.
    await page.evaluate(() => (globalThis as unknown as { consoleMap: { jumpTo(o: unknown): void } }).consoleMap.jumpTo({ center: [-1.3, 7.4], zoom: 7 }));
    const country = await labelsUntil((labels) => Boolean(labels['place-labels-major']?.includes('Kumasi') && labels['national-road-refs']?.some((ref) => /^N\d+$/.test(ref)) && labels['region-labels']?.length));
    process.stderr.write(`console labels at z7 over Ghana: ${JSON.stringify(Object.fromEntries(Object.entries(country).map(([layer, names]) => [layer, [...new Set(names)].slice(0, 8)])))}\n`);
    expect(country['place-labels-major']).toContain('Kumasi');
    expect(country['national-road-refs']?.some((ref) => /^N\d+$/.test(ref))).toBe(true);
    expect(country['region-labels']?.length).toBeGreaterThan(0);

    // The glyph ranges MapLibre asked for, all answered; what the console serves.
    expect(glyphResponses.length).toBeGreaterThan(0);
    expect(glyphResponses.filter((response) => response.status !== 200)).toEqual([]);
    expect(glyphResponses.some((response) => /\/console\/glyphs\/Noto%20Sans%20Regular\/0-255\.pbf$/.test(response.url))).toBe(true);
    const glyphs = await fetch(`${service.url}/console/glyphs/Noto%20Sans%20Bold/0-255.pbf`);
    expect(glyphs.headers.get('content-type')).toBe('application/x-protobuf');
    expect((await glyphs.arrayBuffer()).byteLength).toBeGreaterThan(10_000);
    expect((await fetch(`${service.url}/console/glyphs/Comic%20Sans/0-255.pbf`)).status).toBe(404);
    expect((await fetch(`${service.url}/console/glyphs/Noto%20Sans%20Bold/1-256.pbf`)).status).toBe(404);

    // Back to where the next panels click.
    await page.evaluate((v) => (globalThis as unknown as { consoleMap: { jumpTo(o: unknown): void } }).consoleMap.jumpTo(v), view);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }, 90_000);

  it('asks for a key when a call needs one, then shows the hex code of the clicked point and draws its cell', async () => {
    const box = await mapBox();
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    // The hex code is an API call: the key is asked for (the field takes the focus), and nothing went out without it.
    expect(await until('#key-needed', /GET \/v2\/reverse needs an API key/)).toBeTruthy();
    expect(await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { id: string } | null } }).document.activeElement?.id)).toBe('key');
    expect(apiRequests).toEqual([]);
    await page.keyboard.type(key);
    await page.keyboard.press('Enter');
    const status = await until('#status', /^Cell [0-9a-f]{15}$/);
    expect(await page.$eval('#key-needed', (element) => (element as unknown as { hidden: boolean }).hidden)).toBe(true);
    expect(apiRequests.length).toBeGreaterThan(0);
    expect(apiRequests.filter((request) => !request.keyed)).toEqual([]);
    const cell = status.slice('Cell '.length);
    const { cellToLatLng } = await import('h3-js');
    const [lat, lng] = cellToLatLng(cell);
    const reverse = (await (await service.request('GET', `/v2/reverse?lat=${lat}&lng=${lng}`, { key })).json()) as { data: { display: string } };
    expect(await text('#hexcode')).toBe(reverse.data.display);
    // The map repaints on its next frames (slower under load): wait for the pixels rather than a fixed time.
    const outline = await eventually(async () => {
      const count = (await mapPixels()).filter(([r, g, b]) => r > 180 && g < 40 && b < 60).length;
      return count > 0 ? count : undefined;
    }, 20_000).catch(() => 0);
    expect(outline).toBeGreaterThan(0);
    // By keyboard: Enter on the focused map acts at its centre, as the click there did.
    await page.$eval('#status', (element) => {
      element.textContent = '';
    });
    await page.focus('.maplibregl-canvas');
    await page.keyboard.press('Enter');
    const center = await page.evaluate(() => {
      const map = (globalThis as unknown as { consoleMap: { getCenter(): { lng: number; lat: number } } }).consoleMap;
      return map.getCenter();
    });
    const byKey = (await until('#status', /^Cell [0-9a-f]{15}$/)).slice('Cell '.length);
    const { latLngToCell, getResolution } = await import('h3-js');
    expect(byKey).toBe(latLngToCell(center.lat, center.lng, getResolution(byKey)));
  }, 60_000);

  it('searches, says did-you-mean, lists the results and flies to the first', async () => {
    await page.type('#search', 'Makolla');
    await page.click('#search-form button[type=submit]');
    expect(await until('#did-you-mean', /Did you mean: makola\?/)).toBeTruthy();
    expect((await items('#search-results')).some((item) => item.startsWith('Makola Market'))).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 2000)); // the fly-to animation
  }, 60_000);

  it('draws a route from two clicks and lists its steps with landmarks', async () => {
    await clickMode('route');
    const box = await mapBox();
    await page.mouse.click(box.x + box.width / 2 - 300, box.y + box.height / 2 - 100);
    await until('#status', /Now click the destination/);
    await page.mouse.click(box.x + box.width / 2 + 300, box.y + box.height / 2 + 100);
    await until('#status', /^Route with \d+ steps$/);
    const steps = await items('#route-steps');
    expect(steps.length).toBeGreaterThan(1);
    expect(steps[0]).toMatch(/^Head /);
    expect(steps.some((step) => step.includes('(landmark: '))).toBe(true);
    expect(await text('#output h2')).toMatch(/^Route: \d+\.\d km, \d+ min/);
    // The line is drawn on the map's next frames (slower under load): wait for its pixels rather than a fixed time.
    const line = await eventually(async () => {
      const count = (await mapPixels()).filter((pixel) => near(pixel, hex('#0060df'), 40)).length;
      return count > 50 ? count : undefined;
    }, 20_000).catch(() => 0);
    expect(line).toBeGreaterThan(50);
  }, 60_000);

  it('plans transit itineraries from two clicks', async () => {
    await clickMode('transit');
    const box = await mapBox();
    await page.mouse.click(box.x + box.width / 2 - 300, box.y + box.height / 2 - 100);
    await page.mouse.click(box.x + box.width / 2 + 300, box.y + box.height / 2 + 100);
    await until('#status', /^\d+ itinerar(y|ies)$/);
    const itineraries = await items('#transit-itineraries');
    expect(itineraries.length).toBeGreaterThan(0);
    expect(itineraries[0]).toMatch(/^\d+ min, \d+ transfer\(s\): walk \d+ m/);
  }, 60_000);

  it('creates a geofence with a click and lists it', async () => {
    await clickMode('geofence');
    const box = await mapBox();
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await until('#status', /^Geofence gf_[0-9a-f]+ created \(\d+ cells\)$/);
    expect(await items('#geofence-list')).toEqual([expect.stringMatching(/^console \d\d:\d\d:\d\d: circle 250 m, \d+ cells$/)]);
    const listed = (await (await service.request('GET', '/v2/geofence', { key })).json()) as { data: { items: Array<{ name: string }> } };
    expect(listed.data.items).toHaveLength(1);
  }, 60_000);

  it('reports an incident with a click and shows it', async () => {
    await clickMode('incident');
    const box = await mapBox();
    await page.mouse.click(box.x + box.width / 2 + 50, box.y + box.height / 2);
    await until('#status', /^Incident inc_[0-9a-f]+ reported$/);
    expect(await items('#incident-list')).toEqual([expect.stringMatching(/^accident at 5\.\d{4}, -0\.\d{4}: 1 report\(s\), until \d\d:\d\d UTC/)]);
    await page.click('#show-incidents');
    await until('#output h2', /^Incidents \(1\)$/);
  }, 60_000);

  it('draws the imported CAP weather alert', async () => {
    await page.click('#show-weather');
    await until('#output h2', /^Weather alerts \(1\)$/);
    expect(await items('#weather-list')).toEqual([expect.stringMatching(/^Severe Flood: Flood warning for Accra \(until .* UTC; unsigned\)$/)]);
  }, 60_000);

  it("shows an account's audit trail with its chain status to the operator key", async () => {
    const audit = (await (await service.request('GET', '/v2/admin/audit?limit=200', { key: ADMIN_KEY })).json()) as { data: { items: Array<{ account_id: string | null; key_prefix: string }> } };
    const account = audit.data.items.find((item) => item.account_id && key.startsWith(item.key_prefix.replace('…', '')))!.account_id!;
    await page.$eval('#key', (element) => {
      (element as unknown as { value: string }).value = '';
    });
    await page.type('#key', ADMIN_KEY);
    await page.click('#key-form button[type=submit]');
    // The checkpoint loop (every second here) signs the account's chain.
    const exportUrl = `/v2/admin/audit/export?account_id=${account}`;
    await eventually(async () => {
      const bundle = (await (await service.request('GET', exportUrl, { key: ADMIN_KEY })).json()) as { data: { checkpoints: unknown[] } };
      return bundle.data.checkpoints.length > 0 ? true : undefined;
    }, 30_000);
    await page.type('#audit-account', account);
    await page.click('#audit-form button[type=submit]');
    const status = await until('#chain-status', /intact|broken|NOT/);
    expect(status).toMatch(new RegExp(`^Chain access_log-${account}: intact \\(\\d+ entries, [1-9]\\d* signed checkpoint\\(s\\) verified; signed to its last entry\\)$`));
    const trail = await items('#audit-list');
    expect(trail.some((entry) => / POST \/v2\/route 200$/.test(entry))).toBe(true);
    expect(trail.some((entry) => / POST \/v2\/geofence\/create 201$/.test(entry))).toBe(true);

    // The same bundle with one checkpoint's signature altered: the page names it.
    const bundle = (await (await service.request('GET', exportUrl, { key: ADMIN_KEY })).json()) as { data: { anchor: unknown; checkpoints: Array<{ token: string }> } };
    const token = bundle.data.checkpoints[0].token;
    const signature = token.slice(token.lastIndexOf('.') + 1);
    const altered = signature.startsWith('A') ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;
    bundle.data.checkpoints[0].token = `${token.slice(0, token.lastIndexOf('.') + 1)}${altered}`;
    await page.setRequestInterception(true);
    const tamper = (request: HTTPRequest) => {
      if (request.url().includes('/v2/admin/audit/export')) void request.respond({ status: 200, contentType: 'application/json', body: JSON.stringify(bundle) });
      else void request.continue();
    };
    page.on('request', tamper);
    try {
      await page.click('#audit-form button[type=submit]');
      expect(await until('#chain-status', /broken/)).toBe(`Chain access_log-${account}: broken: checkpoint #${bundle.data.anchor ? 1 : 0}: signature does not verify`);
    } finally {
      page.off('request', tamper);
      await page.setRequestInterception(false);
    }
    expect(errors).toEqual([]);
  }, 90_000);
});
