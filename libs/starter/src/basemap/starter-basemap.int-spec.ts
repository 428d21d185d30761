import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { decodeVectorTile, referenceReader } from '../../../tiles/src/testing/pmtiles-reader.js';
import { tileOf } from '../../../tiles/src/index.js';
import { appRoot, DEFAULT_PACK, readManifest } from '../public/pack.js';
import { basemapSources, buildBasemap, BASEMAP_MAX_ZOOM, roadClass, type BasemapProgress } from '../public/starter-basemap.js';

const ACCRA = { lat: 5.5560, lng: -0.1969 };

describe('the starter basemap, built from the Ghana pack', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'basemap-'));
  const file = path.join(dir, 'starter.pmtiles');
  const progress: BasemapProgress[] = [];
  let build: Awaited<ReturnType<typeof buildBasemap>>;

  beforeAll(async () => {
    const packDir = path.join(appRoot(), DEFAULT_PACK);
    build = await buildBasemap(basemapSources(packDir, await readManifest(packDir)), file, (p) => progress.push(p));
    process.stderr.write(`starter basemap: ${build.tiles} tiles, ${build.bytes} bytes, ${build.road_features} roads, ${build.boundary_features} boundaries, ${build.ms} ms\n`);
  }, 120_000);

  it('writes a PMTiles v3 archive the reference reader opens, over Ghana, z0-14, with the attribution', async () => {
    const reader = referenceReader(readFileSync(file));
    const header = await reader.getHeader();
    expect(header).toMatchObject({ specVersion: 3, minZoom: 0, maxZoom: BASEMAP_MAX_ZOOM, numAddressedTiles: build.tiles, clustered: true });
    expect(header.minLon).toBeLessThan(-3);
    expect(header.maxLat).toBeGreaterThan(11);
    const metadata = (await reader.getMetadata()) as { attribution: string; vector_layers: Array<{ id: string }> };
    expect(metadata.attribution).toContain('© OpenStreetMap contributors');
    expect(metadata.vector_layers.map((layer) => layer.id).sort()).toEqual(['boundaries', 'roads']);
    expect(readdirSync(dir)).toEqual(['starter.pmtiles']);
  });

  it('holds real roads by class in a street-level tile of central Accra, over the district boundaries', async () => {
    const reader = referenceReader(readFileSync(file));
    const [x, y] = tileOf(ACCRA.lng, ACCRA.lat, 14);
    const tile = await reader.getZxy(14, x, y);
    expect(tile).toBeDefined();
    const layers = decodeVectorTile(tile!.data);
    expect(layers.roads.length).toBeGreaterThan(5);
    expect(layers.roads.every((road) => road.type === 2)).toBe(true);
    expect(new Set(layers.roads.map((road) => road.properties.class)).size).toBeGreaterThan(1);
    expect(layers.roads.some((road) => typeof road.properties.name === 'string')).toBe(true);
    expect(layers.boundaries.some((area) => area.properties.admin_level === 2 && area.type === 3)).toBe(true);
  });

  it('covers the whole country at low zoom but only the road area at street zoom', async () => {
    const reader = referenceReader(readFileSync(file));
    const [tx, ty] = tileOf(-1.6, 9.4, 8); // Tamale, far from the Accra roads
    expect(decodeVectorTile((await reader.getZxy(8, tx, ty))!.data).boundaries.length).toBeGreaterThan(0);
    const [sx, sy] = tileOf(-1.6, 9.4, 14);
    expect(await reader.getZxy(14, sx, sy)).toBeUndefined();
  });

  it('reports progress through reading, tiling and writing', () => {
    expect(new Set(progress.map((p) => p.phase))).toEqual(new Set(['reading roads', 'reading boundaries', 'tiling', 'writing']));
    expect(progress.at(-1)).toEqual({ phase: 'writing', done: 1, total: 1 });
  });

  it('draws roads by class and leaves crossings and signals out', () => {
    expect(roadClass('primary_link')).toBe('primary');
    expect(roadClass('residential')).toBe('minor');
    expect(roadClass('crossing')).toBeNull();
  });
});
