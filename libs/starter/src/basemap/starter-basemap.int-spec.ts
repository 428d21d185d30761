import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { decodeVectorTile, referenceReader } from '../../../tiles/src/testing/pmtiles-reader.js';
import { buildVectorArchive, tileOf } from '../../../tiles/src/index.js';
import { appRoot, DEFAULT_PACK, readManifest } from '../public/pack.js';
import { BASEMAP_GENERATOR, BASEMAP_VERSION, basemapSources, buildBasemap, BASEMAP_MAX_ZOOM, isOutdatedStarterBasemap, labelPoint, NATIONAL_LEAD_TO, roadClass, type BasemapProgress } from '../public/starter-basemap.js';

const ACCRA = { lat: 5.5560, lng: -0.1969 };

describe('the starter basemap, built from the Ghana pack', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'basemap-'));
  const file = path.join(dir, 'starter.pmtiles');
  const glyphs = path.join(dir, 'glyphs');
  const progress: BasemapProgress[] = [];
  let build: Awaited<ReturnType<typeof buildBasemap>>;

  beforeAll(async () => {
    const packDir = path.join(appRoot(), DEFAULT_PACK);
    build = await buildBasemap(basemapSources(packDir, await readManifest(packDir), glyphs), file, (p) => progress.push(p));
    process.stderr.write(
      `starter basemap: ${build.tiles} tiles, ${build.bytes} bytes, ${build.road_features} roads, ${build.national_road_features} national road pieces, ${build.boundary_features} boundaries, ` +
        `${build.place_features} places, ${build.water_labels} water names, ${build.glyph_ranges} glyph ranges; ${build.ms} ms (${JSON.stringify(build.phases_ms)})\n`,
    );
  }, 120_000);

  it('writes a PMTiles v3 archive the reference reader opens, over Ghana, z0-14, with the attribution', async () => {
    const reader = referenceReader(readFileSync(file));
    const header = await reader.getHeader();
    expect(header).toMatchObject({ specVersion: 3, minZoom: 0, maxZoom: BASEMAP_MAX_ZOOM, numAddressedTiles: build.tiles, clustered: true });
    expect(header.minLon).toBeLessThan(-3);
    expect(header.maxLat).toBeGreaterThan(11);
    const metadata = (await reader.getMetadata()) as { attribution: string; vector_layers: Array<{ id: string; maxzoom: number }> };
    // Every dataset drawn is credited: OpenStreetMap, the World Bank's AICD roads, OCHA's boundaries, GeoNames.
    expect(metadata.attribution).toContain('© OpenStreetMap contributors');
    expect(metadata.attribution).toContain('The World Bank: Ghana Roads (AICD, 2009)');
    expect(metadata.attribution).toContain('OCHA');
    expect(metadata.attribution).toContain('GeoNames');
    expect(metadata.vector_layers.map((layer) => layer.id).sort()).toEqual(['boundaries', 'boundary_labels', 'national_roads', 'places', 'roads', 'water_labels']);
    expect(metadata.vector_layers.find((layer) => layer.id === 'places')!.maxzoom).toBe(NATIONAL_LEAD_TO);
    expect(readdirSync(dir).sort()).toEqual(['glyphs', 'starter.pmtiles']);
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

  it('holds the national roads with their refs, the places by rank, and the district and water names, beyond Accra', async () => {
    const reader = referenceReader(readFileSync(file));
    const at = async (z: number, lng: number, lat: number) => decodeVectorTile((await reader.getZxy(z, ...tileOf(lng, lat, z)))!.data);
    const kumasi = await at(NATIONAL_LEAD_TO, -1.62, 6.69);
    const refs = new Set(kumasi.national_roads.map((road) => road.properties.ref));
    expect(refs).toContain('N6');
    expect(kumasi.national_roads.every((road) => road.type === 2 && ['trunk', 'primary', 'secondary'].includes(road.properties.class as string))).toBe(true);
    expect(kumasi.places.find((place) => place.properties.name === 'Kumasi')?.properties).toMatchObject({ rank: 1, kind: 'city' });
    expect(kumasi.boundary_labels.some((label) => label.properties.admin_level === 2 && typeof label.properties.name === 'string')).toBe(true);
    // Low zooms carry only the big places: Accra and the cities at z4, no village.
    const country = await at(4, -1.0, 7.9);
    expect(country.places.map((place) => place.properties.name)).toEqual(expect.arrayContaining(['Accra', 'Kumasi', 'Tamale']));
    expect(country.places.every((place) => (place.properties.rank as number) <= 1)).toBe(true);
    expect(country.boundary_labels.some((label) => label.properties.admin_level === 1)).toBe(true);
    expect((await at(6, 0.19, 7.4)).water_labels.map((water) => water.properties.name)).toContain('Lake Volta');
    expect((await at(8, -1.6, 9.4)).national_roads.length).toBeGreaterThan(0); // Tamale
  });

  it('leaves the national roads out where the Accra streets are, and puts each district label inside its district', async () => {
    const reader = referenceReader(readFileSync(file));
    const [x, y] = tileOf(ACCRA.lng, ACCRA.lat, 14);
    expect(decodeVectorTile((await reader.getZxy(14, x, y))!.data).national_roads ?? []).toEqual([]);
    // A C-shaped area: its centroid (x ≈ 3.3) is in the notch; the label goes on the back of the C.
    const [lng, lat] = labelPoint({ type: 'Polygon', coordinates: [[[0, 0], [10, 0], [10, 1], [1, 1], [1, 9], [10, 9], [10, 10], [0, 10], [0, 0]]] })!;
    expect(lng).toBe(0.5);
    expect(lat).toBeCloseTo(5, 0);
  });

  it('writes the glyph ranges the labels need, once', async () => {
    expect(readdirSync(glyphs).sort()).toEqual(['Noto Sans Bold', 'Noto Sans Italic', 'Noto Sans Regular']);
    expect(readdirSync(path.join(glyphs, 'Noto Sans Regular'))).toContain('0-255.pbf');
    expect(build.glyph_ranges).toBe(3 * readdirSync(path.join(glyphs, 'Noto Sans Regular')).length);
  });

  it("knows its own older builds, which a start replaces, from an operator's archive, which it keeps", async () => {
    expect(await isOutdatedStarterBasemap(file)).toBe(false);
    const archive = (metadata: Record<string, unknown>) => {
      const other = path.join(dir, `other-${Object.keys(metadata).join('-')}.pmtiles`);
      writeFileSync(other, buildVectorArchive({ layers: [], minZoom: 0, maxZoom: 0, metadata }).archive);
      return other;
    };
    // Version 1 (no labels) wrote no generator.
    expect(await isOutdatedStarterBasemap(archive({ name: 'starter', description: 'The starter region: roads and administrative boundaries' }))).toBe(true);
    expect(await isOutdatedStarterBasemap(archive({ generator: BASEMAP_GENERATOR, generator_version: BASEMAP_VERSION - 1 }))).toBe(true);
    expect(await isOutdatedStarterBasemap(archive({ name: 'starter', description: 'Our own city basemap' }))).toBe(false);
    expect(await isOutdatedStarterBasemap(path.join(dir, 'absent.pmtiles'))).toBe(false);
    for (const name of readdirSync(dir)) if (name.startsWith('other-')) rmSync(path.join(dir, name));
  });

  it('covers the whole country at low zoom but only the road area at street zoom', async () => {
    const reader = referenceReader(readFileSync(file));
    const [tx, ty] = tileOf(-1.6, 9.4, 8); // Tamale, far from the Accra roads
    expect(decodeVectorTile((await reader.getZxy(8, tx, ty))!.data).boundaries.length).toBeGreaterThan(0);
    const [sx, sy] = tileOf(-1.6, 9.4, 14);
    expect(await reader.getZxy(14, sx, sy)).toBeUndefined();
  });

  it('reports progress through reading, tiling and writing', () => {
    expect(new Set(progress.map((p) => p.phase))).toEqual(new Set(['reading roads', 'reading boundaries', 'reading places', 'tiling', 'writing', 'glyphs']));
    expect(progress.at(-1)).toMatchObject({ phase: 'glyphs' });
  });

  it('draws roads by class and leaves crossings and signals out', () => {
    expect(roadClass('primary_link')).toBe('primary');
    expect(roadClass('residential')).toBe('minor');
    expect(roadClass('crossing')).toBeNull();
  });
});
