import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, utimesSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bytesToHeader, FetchSource, PMTiles, type RangeResponse, type Source } from 'pmtiles';
import { buildPmtilesArchive } from '../libs/tiles/src/testing/pmtiles-fixture.js';
import { bootService, type Service } from './support/boot.js';

const FIRENZE = path.resolve('../shared/data/pmtiles/firenze.pmtiles');
const haveFirenze = existsSync(FIRENZE);
if (!haveFirenze) console.warn(`skipping the firenze.pmtiles tests: ${FIRENZE} is absent (the generated archives still run)`);

/** The reference: the same archive read straight from disk. */
class DiskSource implements Source {
  constructor(private readonly file: string) {}
  getKey() {
    return this.file;
  }
  async getBytes(offset: number, length: number): Promise<RangeResponse> {
    const handle = await open(this.file, 'r');
    try {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, offset);
      return { data: Uint8Array.from(buffer.subarray(0, bytesRead)).buffer };
    } finally {
      await handle.close();
    }
  }
}

/** interface.md, "GET /v2/tiles/{name}"; issue 5, "Tiles". */
describe('basemap tiles over HTTP', () => {
  let service: Service;
  let key: string;
  let tilesDir: string;
  const blob = randomBytes(100_003);
  const ghanaTiles = [
    { z: 0, x: 0, y: 0, data: randomBytes(300) },
    { z: 6, x: 31, y: 30, data: randomBytes(2000) },
    { z: 6, x: 32, y: 31, data: randomBytes(17) },
    { z: 12, x: 2045, y: 1983, data: randomBytes(5000) },
  ];
  const ghanaMetadata = { name: 'ghana-test', vector_layers: [{ id: 'roads', fields: {} }], attribution: '© OpenStreetMap' };

  beforeAll(async () => {
    const parent = mkdtempSync(path.join(tmpdir(), 'location-api-tiles-'));
    tilesDir = path.join(parent, 'tiles');
    mkdirSync(tilesDir);
    writeFileSync(path.join(tilesDir, 'blob.pmtiles'), blob);
    writeFileSync(path.join(tilesDir, 'empty.pmtiles'), Buffer.alloc(0));
    // A valid archive with no tile in it (a region built before it had data).
    writeFileSync(path.join(tilesDir, 'no-tiles.pmtiles'), buildPmtilesArchive({ tiles: [], metadata: { vector_layers: [] } }));
    writeFileSync(
      path.join(tilesDir, 'ghana.pmtiles'),
      buildPmtilesArchive({
        tiles: ghanaTiles,
        metadata: ghanaMetadata,
        bounds: { west: -3.26, south: 4.73, east: 1.2, north: 11.17 },
        center: { lat: 5.6037, lng: -0.187, zoom: 6 },
      }),
    );
    mkdirSync(path.join(tilesDir, 'folder.pmtiles'));
    writeFileSync(path.join(tilesDir, 'notes.txt'), 'not an archive');
    // A file beside the tiles folder that no request may reach.
    writeFileSync(path.join(parent, 'secret.pmtiles'), 'secret');
    if (haveFirenze) copyFileSync(FIRENZE, path.join(tilesDir, 'firenze.pmtiles'));
    service = await bootService({ env: { TILES_DIR: tilesDir } });
  });
  afterAll(async () => {
    await service?.close();
  });

  /**
   * Every tile request counts against the key's daily quota (interface.md,
   * "Limits"; 100 on the free tier), so each group of tests signs up its own key.
   */
  function withFreshKey() {
    beforeAll(async () => {
      const signup = await service.request('POST', '/v2/self/signup', { body: { name: 'Ama', email: `ama-${Math.random().toString(36).slice(2)}@example.com` } });
      key = ((await signup.json()) as { data: { key: string } }).data.key;
    });
  }

  /** Compares by length and digest: a deep equality over 100 kB of bytes is slow, and its diff unreadable. */
  const digest = (data: Uint8Array | ArrayBuffer) => {
    const view = data instanceof ArrayBuffer ? new Uint8Array(data) : data;
    return { length: view.length, sha256: createHash('sha256').update(view).digest('hex') };
  };
  const expectSameBytes = (actual: Uint8Array | ArrayBuffer, expected: Uint8Array | ArrayBuffer) => expect(digest(actual)).toEqual(digest(expected));

  const get = (name: string, headers: Record<string, string> = {}, method = 'GET') => service.request(method, `/v2/tiles/${name}`, { key, headers });
  const bytes = async (response: Response) => Buffer.from(await response.arrayBuffer());
  const errorOf = async (response: Response) => ((await response.json()) as { success: boolean; error: { code: string; field?: string } });
  const client = (name: string) => new PMTiles(new FetchSource(`${service.url}/v2/tiles/${name}`, new Headers({ 'X-API-Key': key })));

  describe('through the pmtiles client', () => {
    withFreshKey();
    it('reads a generated archive: header, metadata and every tile', async () => {
      const archive = client('ghana');
      const header = await archive.getHeader();
      const expected = bytesToHeader(Uint8Array.from(readFileSync(path.join(tilesDir, 'ghana.pmtiles')).subarray(0, 127)).buffer);
      expect({ ...header, etag: undefined }).toEqual({ ...expected, etag: undefined });
      expect(header.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
      expect(await archive.getMetadata()).toEqual(ghanaMetadata);
      for (const tile of ghanaTiles) {
        const got = await archive.getZxy(tile.z, tile.x, tile.y);
        expectSameBytes(got!.data, tile.data);
      }
      expect(await archive.getZxy(6, 0, 0)).toBeUndefined();
    });

    it('an archive without tiles: header and metadata read, every tile absent, nothing answers 5xx', async () => {
      const archive = client('no-tiles');
      expect(await archive.getHeader()).toMatchObject({ specVersion: 3, minZoom: 0, maxZoom: 0, numAddressedTiles: 0 });
      expect(await archive.getMetadata()).toEqual({ vector_layers: [] });
      expect(await archive.getZxy(0, 0, 0)).toBeUndefined();
      expect(await archive.getZxy(14, 8183, 7936)).toBeUndefined();
    });

    it('a zero-byte file: the client gets a clear error from the 416, never a 5xx', async () => {
      await expect(client('empty').getHeader()).rejects.toThrow();
      expect((await get('empty', { range: 'bytes=0-16383' })).status).toBe(416);
    });

    (haveFirenze ? it : it.skip)('reads firenze.pmtiles exactly as reading the file directly does', async () => {
      const served = client('firenze.pmtiles');
      const local = new PMTiles(new DiskSource(FIRENZE));
      const header = await served.getHeader();
      expect({ ...header, etag: undefined }).toEqual({ ...(await local.getHeader()), etag: undefined });
      expect(await served.getMetadata()).toEqual(await local.getMetadata());

      let found = 0;
      for (let z = header.minZoom; z <= header.maxZoom; z++) {
        const n = 2 ** z;
        const x = Math.floor(((header.centerLon + 180) / 360) * n);
        const lat = (header.centerLat * Math.PI) / 180;
        const y = Math.floor(((1 - Math.log(Math.tan(lat) + 1 / Math.cos(lat)) / Math.PI) / 2) * n);
        for (const [dx, dy] of [[0, 0], [1, 0], [0, 1]]) {
          if (x + dx >= n || y + dy >= n) continue;
          const [fromService, fromDisk] = await Promise.all([served.getZxy(z, x + dx, y + dy), local.getZxy(z, x + dx, y + dy)]);
          expect(fromService === undefined).toBe(fromDisk === undefined);
          if (fromService && fromDisk) {
            expectSameBytes(Buffer.from(fromService.data), Buffer.from(fromDisk.data));
            found++;
          }
        }
      }
      expect(found).toBeGreaterThanOrEqual(3);
    });
  });

  describe('byte ranges', () => {
    withFreshKey();
    const size = blob.length;

    it('serves the whole archive with its validators and caching headers when no range is asked', async () => {
      const response = await get('blob');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/vnd.pmtiles');
      expect(response.headers.get('content-length')).toBe(String(size));
      expect(response.headers.get('accept-ranges')).toBe('bytes');
      expect(response.headers.get('etag')).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
      expect(new Date(response.headers.get('last-modified')!).toString()).not.toBe('Invalid Date');
      expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
      expect(response.headers.get('vary')).toMatch(/X-API-Key/i);
      expectSameBytes(await bytes(response), blob);
    });

    it.each([
      ['bytes=0-9', 0, 9],
      ['bytes=1000-1999', 1000, 1999],
      [`bytes=${size - 5}-`, size - 5, size - 1],
      ['bytes=-7', size - 7, size - 1],
      [`bytes=99990-${size + 1000}`, 99990, size - 1],
      ['bytes=-999999999', 0, size - 1],
    ])('%s answers 206 with bytes %i-%i', async (range, start, end) => {
      const response = await get('blob', { range });
      expect(response.status).toBe(206);
      expect(response.headers.get('content-range')).toBe(`bytes ${start}-${end}/${size}`);
      expect(response.headers.get('content-length')).toBe(String(end - start + 1));
      expectSameBytes(await bytes(response), blob.subarray(start, end + 1));
    });

    it('a first request for 16 KiB of an archive smaller than that gets what there is (the pmtiles client starts so)', async () => {
      const archive = readFileSync(path.join(tilesDir, 'ghana.pmtiles'));
      expect(archive.length).toBeLessThan(16384);
      const response = await get('ghana', { range: 'bytes=0-16383' });
      expect(response.status).toBe(206);
      expect(response.headers.get('content-range')).toBe(`bytes 0-${archive.length - 1}/${archive.length}`);
      expectSameBytes(await bytes(response), archive);
    });

    it.each([`bytes=${size}-`, `bytes=${size + 10}-${size + 20}`, 'bytes=-0'])('%s is 416 with Content-Range bytes */size, in the envelope', async (range) => {
      const response = await get('blob', { range });
      expect(response.status).toBe(416);
      expect(response.headers.get('content-range')).toBe(`bytes */${size}`);
      expect(await errorOf(response)).toMatchObject({ success: false, error: { code: 'RANGE_NOT_SATISFIABLE' } });
    });

    it('an empty archive: whole is 200 with no bytes, any range is 416', async () => {
      const whole = await get('empty');
      expect(whole.status).toBe(200);
      expect(whole.headers.get('content-length')).toBe('0');
      expect((await bytes(whole)).length).toBe(0);
      const ranged = await get('empty', { range: 'bytes=0-' });
      expect(ranged.status).toBe(416);
      expect(ranged.headers.get('content-range')).toBe('bytes */0');
    });

    it.each(['bytes=0-1,10-20', 'bytes=5-4', 'items=0-9', 'bytes=x-y'])('%s is ignored: 200 with the whole archive', async (range) => {
      const response = await get('blob', { range });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-range')).toBeNull();
      expectSameBytes(await bytes(response), blob);
    });

    it('HEAD answers the length and validators without a body, ignoring Range', async () => {
      const whole = await get('blob');
      await whole.arrayBuffer();
      const head = await get('blob', { range: 'bytes=0-9' }, 'HEAD');
      expect(head.status).toBe(200);
      expect(head.headers.get('content-length')).toBe(String(size));
      expect(head.headers.get('etag')).toBe(whole.headers.get('etag'));
      expect(head.headers.get('accept-ranges')).toBe('bytes');
      expect((await bytes(head)).length).toBe(0);
    });
  });

  describe('conditional requests', () => {
    withFreshKey();
    let etag: string;
    let lastModified: string;
    beforeAll(async () => {
      const response = await get('blob');
      await response.arrayBuffer();
      etag = response.headers.get('etag')!;
      lastModified = response.headers.get('last-modified')!;
    });

    it('If-None-Match with the current ETag is 304 without a body, with the validators', async () => {
      const response = await get('blob', { 'if-none-match': etag });
      expect(response.status).toBe(304);
      expect(response.headers.get('etag')).toBe(etag);
      expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
      expect((await bytes(response)).length).toBe(0);
      const stale = await get('blob', { 'if-none-match': '"stale"' });
      expect(stale.status).toBe(200);
      await stale.arrayBuffer();
    });

    it('If-Modified-Since the Last-Modified is 304; an earlier date is 200', async () => {
      expect((await get('blob', { 'if-modified-since': lastModified })).status).toBe(304);
      const earlier = new Date(Date.parse(lastModified) - 60_000).toUTCString();
      const response = await get('blob', { 'if-modified-since': earlier });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    });

    it('If-Range: the range for the current ETag, the whole archive for another', async () => {
      const current = await get('blob', { range: 'bytes=0-3', 'if-range': etag });
      expect(current.status).toBe(206);
      expectSameBytes(await bytes(current), blob.subarray(0, 4));
      const old = await get('blob', { range: 'bytes=0-3', 'if-range': '"older"' });
      expect(old.status).toBe(200);
      expectSameBytes(await bytes(old), blob);
    });

    it('If-Match with another ETag is 412 PRECONDITION_FAILED in the envelope', async () => {
      const response = await get('blob', { 'if-match': '"other"' });
      expect(response.status).toBe(412);
      expect(await errorOf(response)).toMatchObject({ error: { code: 'PRECONDITION_FAILED' } });
    });

    it('an archive replaced on disk gets a new ETag and is served anew', async () => {
      const replacement = randomBytes(4321);
      const temporary = path.join(tilesDir, 'swap.tmp');
      writeFileSync(path.join(tilesDir, 'swap.pmtiles'), randomBytes(4321));
      const before = await get('swap');
      await before.arrayBuffer();
      writeFileSync(temporary, replacement);
      // Same size, and a modification time that differs only below the second: the ETag still changes.
      const mtime = new Date(Date.parse(before.headers.get('last-modified')!) + 500);
      utimesSync(temporary, mtime, mtime);
      renameSync(temporary, path.join(tilesDir, 'swap.pmtiles'));
      const after = await get('swap');
      expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
      expectSameBytes(await bytes(after), replacement);
      expect((await get('swap', { 'if-none-match': before.headers.get('etag')! })).status).toBe(200);
    });
  });

  describe('names', () => {
    withFreshKey();
    it('an unknown archive is 404 NOT_FOUND in the envelope; so is a folder named like one', async () => {
      for (const name of ['nowhere', 'folder', 'notes']) {
        const response = await get(name);
        expect(response.status).toBe(404);
        expect(await errorOf(response)).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
      }
    });

    /** Sends the path exactly as written: fetch would resolve the dot segments itself. */
    function raw(pathname: string): Promise<{ status: number; body: string }> {
      return new Promise((resolve, reject) => {
        const url = new URL(service.url);
        const req = httpRequest({ host: url.hostname, port: url.port, path: pathname, headers: { 'x-api-key': key } }, (res) => {
          let body = '';
          res.setEncoding('latin1');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end();
      });
    }

    it.each([
      '/v2/tiles/..%2Fsecret',
      '/v2/tiles/..%2Fsecret.pmtiles',
      '/v2/tiles/..%2F..%2F..%2Fetc%2Fpasswd',
      '/v2/tiles/%2e%2e',
      '/v2/tiles/..',
      '/v2/tiles/.pmtiles',
      '/v2/tiles/blob.pmtiles.pmtiles',
      '/v2/tiles/%00blob',
      '/v2/tiles/..%5Cblob',
      '/v2/tiles/blob%20',
    ])('%s is refused with 400 INVALID_PARAM on the field name', async (pathname) => {
      const response = await raw(pathname);
      expect(response.status).toBe(400);
      expect(JSON.parse(response.body)).toMatchObject({ success: false, error: { code: 'INVALID_PARAM', field: 'name' } });
    });

    it.each(['/v2/tiles/../../etc/passwd', '/v2/tiles/a/../../blob.pmtiles', '/v2/tiles/x/blob'])('%s matches no archive route', async (pathname) => {
      const response = await raw(pathname);
      expect(response.status).toBe(404);
      expect(response.body).not.toContain('secret');
      expect(JSON.parse(response.body)).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    });
  });

  describe('access and CORS', () => {
    withFreshKey();
    it('needs a key, and a browser can still read the refusal', async () => {
      const response = await service.request('GET', '/v2/tiles/blob', { headers: { origin: 'https://maps.example' } });
      expect(response.status).toBe(401);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
    });

    it('exposes Content-Range and ETag to scripts on other origins', async () => {
      const response = await get('blob', { origin: 'https://maps.example', range: 'bytes=0-0' });
      await response.arrayBuffer();
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      const exposed = response.headers.get('access-control-expose-headers')!.toLowerCase().split(/\s*,\s*/);
      expect(exposed).toEqual(expect.arrayContaining(['content-range', 'etag', 'content-length']));
    });

    it('answers the preflight without a key, allowing X-API-Key and Range', async () => {
      const response = await service.request('OPTIONS', '/v2/tiles/blob', {
        headers: { origin: 'https://maps.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-api-key,range' },
      });
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      const allowed = response.headers.get('access-control-allow-headers')!.toLowerCase().split(/\s*,\s*/);
      expect(allowed).toEqual(expect.arrayContaining(['x-api-key', 'range', 'if-range', 'if-none-match']));
      expect(response.headers.get('access-control-allow-methods')).toContain('GET');
    });
  });

  describe('the listing', () => {
    withFreshKey();
    type Item = { name: string; url: string; size_bytes: number; etag: string; last_modified: string; pmtiles: Record<string, unknown> | null };
    const list = async (query = '') => {
      const response = await service.request('GET', `/v2/tiles${query}`, { key });
      expect(response.status).toBe(200);
      return ((await response.json()) as { data: { items: Item[]; next_cursor: string | null } }).data;
    };

    it('lists the archives by name with their PMTiles header', async () => {
      const { items, next_cursor } = await list();
      // `swap` exists once the replacement test has run.
      const names = items.map((item) => item.name).filter((name) => name !== 'swap');
      expect(names).toEqual(haveFirenze ? ['blob', 'empty', 'firenze', 'ghana', 'no-tiles'] : ['blob', 'empty', 'ghana', 'no-tiles']);
      expect(next_cursor).toBeNull();
      const ghana = items.find((item) => item.name === 'ghana')!;
      const head = await get('ghana', {}, 'HEAD');
      expect(ghana).toMatchObject({ url: '/v2/tiles/ghana', etag: head.headers.get('etag'), size_bytes: Number(head.headers.get('content-length')) });
      expect(ghana.pmtiles).toEqual({
        spec_version: 3,
        tile_type: 'mvt',
        tile_compression: 'none',
        min_zoom: 0,
        max_zoom: 12,
        bounds: { west: -3.26, south: 4.73, east: 1.2, north: 11.17 },
        center: { lat: 5.6037, lng: -0.187, zoom: 6 },
        addressed_tiles: 4,
      });
      expect(items.find((item) => item.name === 'blob')!.pmtiles).toBeNull();
      expect(items.find((item) => item.name === 'empty')!.pmtiles).toBeNull();
      expect(items.find((item) => item.name === 'no-tiles')!.pmtiles).toMatchObject({ min_zoom: 0, max_zoom: 0, addressed_tiles: 0 });
      if (haveFirenze) expect(items.find((item) => item.name === 'firenze')!.pmtiles).toMatchObject({ spec_version: 3, tile_type: 'mvt' });
    });

    it('pages with limit and next_cursor', async () => {
      const all = (await list()).items.map((item) => item.name);
      const first = await list('?limit=2');
      expect(first.items.map((item) => item.name)).toEqual(all.slice(0, 2));
      expect(first.next_cursor).toBe(all[1]);
      const second = await list(`?limit=2&cursor=${first.next_cursor}`);
      expect(second.items.map((item) => item.name)).toEqual(all.slice(2, 4));
    });

    it('refuses a bad limit with the field named', async () => {
      const response = await service.request('GET', '/v2/tiles?limit=0', { key });
      expect(response.status).toBe(400);
      expect(await errorOf(response)).toMatchObject({ error: { code: 'INVALID_PARAM', field: 'limit' } });
    });
  });

  it('is in the OpenAPI document as built, not as planned', async () => {
    const document = (await (await service.request('GET', '/v2/openapi.json')).json()) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    const operation = document.paths['/v2/tiles/{name}'].get;
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '206', '304', '416']));
    expect(operation.responses['501']).toBeUndefined();
    expect(document.paths['/v2/tiles'].get).toBeDefined();
  });
});
