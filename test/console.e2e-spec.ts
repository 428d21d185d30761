import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import puppeteer, { type Browser } from 'puppeteer-core';
import { buildPmtilesArchive } from '../libs/tiles/src/testing/pmtiles-fixture.js';
import { bootService, type Service } from './support/boot.js';

/** CHROME_PATH, else `chromium` or `chromium-browser` on PATH (Debian's package; `.ci/run` installs it). */
function findBrowser(): string | undefined {
  if (process.env.CHROME_PATH) return existsSync(process.env.CHROME_PATH) ? process.env.CHROME_PATH : undefined;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    for (const name of ['chromium', 'chromium-browser']) {
      const candidate = path.join(dir, name);
      if (dir && existsSync(candidate)) return candidate;
    }
  }
  return undefined;
}

const browserPath = findBrowser();
if (!browserPath) process.stderr.write('no chromium found (chromium, chromium-browser or CHROME_PATH): skipping the console browser test\n');
const describeInBrowser = browserPath ? describe : describe.skip;

const BACKGROUND = [0xf2, 0xef, 0xe9];

describeInBrowser('GET /console in a real browser (chromium via puppeteer-core)', () => {
  let service: Service;
  let browser: Browser;
  let key: string;

  beforeAll(async () => {
    // A basemap archive named like the starter's, so the page finds and loads one through /v2/tiles.
    const tilesDir = mkdtempSync(path.join(tmpdir(), 'console-tiles-'));
    writeFileSync(path.join(tilesDir, 'starter.pmtiles'), buildPmtilesArchive({ tiles: [{ z: 0, x: 0, y: 0, data: new Uint8Array(0) }], metadata: { vector_layers: [] }, center: { lat: 5.6, lng: -0.2, zoom: 12 } }));
    service = await bootService({ env: { TILES_DIR: tilesDir } });
    const signup = await service.request('POST', '/v2/self/signup', { body: { name: 'Console', email: 'console@example.com' } });
    key = ((await signup.json()) as { data: { key: string } }).data.key;
    browser = await puppeteer.launch({
      executablePath: browserPath,
      headless: true,
      // WebGL without a GPU: SwiftShader. No sandbox: CI runs as root in a container.
      args: ['--no-sandbox', '--enable-unsafe-swiftshader', '--use-angle=swiftshader', '--window-size=1000,700'],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  it('serves the page without a key, with its content type and a same-origin CSP', async () => {
    const response = await fetch(`${service.url}/console`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
    const script = await fetch(`${service.url}/console/assets/maplibre-gl.mjs`);
    expect(script.headers.get('content-type')).toContain('javascript');
    expect((await fetch(`${service.url}/console/assets/..%2Fpackage.json`)).status).toBe(404);
  });

  it('takes a key, shows the hex code of a clicked point and draws its cell', async () => {
    const page = await browser.newPage();
    await page.setViewport({ width: 1000, height: 700 });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto(`${service.url}/console`);
    await page.type('#key', key);
    await page.click('#key-form button[type=submit]');
    await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 }).catch(async (error: Error) => {
      throw new Error(`${error.message}; page says "${await page.$eval('#status', (element) => element.textContent)}"; errors: ${errors.join(' | ')}`);
    });
    expect(await page.$eval('.maplibregl-ctrl-attrib', (element) => element.textContent)).toContain('OpenStreetMap');

    const map = (await page.$('#map'))!;
    const box = (await map.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForFunction("document.getElementById('hexcode').textContent !== ''", { timeout: 15_000 });
    const shown = await page.$eval('#hexcode', (element) => element.textContent!);
    const center = await page.$eval('#status', (element) => element.textContent);
    expect(center).toMatch(/^Cell [0-9a-f]{15}$/);
    // The page shows what the API answers for that cell.
    const cell = center!.slice('Cell '.length);
    const { cellToLatLng } = await import('h3-js');
    const [lat, lng] = cellToLatLng(cell);
    const reverse = (await (await service.request('GET', `/v2/reverse?lat=${lat}&lng=${lng}`, { key })).json()) as { data: { display: string } };
    expect(shown).toBe(reverse.data.display);

    // Give MapLibre a frame to draw the outline, then look at the pixels.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const png = PNG.sync.read(Buffer.from(await map.screenshot({ type: 'png' })));
    let drawn = 0;
    let background = 0;
    for (let i = 0; i < png.data.length; i += 4) {
      const [r, g, b] = [png.data[i], png.data[i + 1], png.data[i + 2]];
      if (Math.abs(r - BACKGROUND[0]) + Math.abs(g - BACKGROUND[1]) + Math.abs(b - BACKGROUND[2]) < 12) background++;
      else if (r > 150 && g < 80 && b < 80) drawn++;
    }
    expect(background).toBeGreaterThan((png.width * png.height) / 2);
    expect(drawn).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});
