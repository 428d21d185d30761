import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { gunzipSync } from 'node:zlib';
import type { Feature, Geometry, Position } from 'geojson';
import { readOsm } from '../../../reference-data/src/index.js';
import { buildVectorArchive, glyphRangesFor, writeGlyphRanges, type VectorLayer } from '../../../tiles/src/index.js';
import type { PackManifest } from './pack.js';

/**
 * The starter region's vector basemap (docs/adr/0027, labels ADR 0037), built
 * on first start from the pack's files: the Accra streets (OSM) as `roads`,
 * the national backbone (World Bank AICD) as `national_roads` (clipped where
 * the streets are), the regions and districts as `boundaries` and their label
 * points as `boundary_labels`, the localities (OSM place nodes and GeoNames
 * populated places, one per name and spot) as `places`, and the named lakes,
 * lagoons and reservoirs of GeoNames as `water_labels`; then the SDF glyph
 * ranges the labels need (docs/adr/0037). Written to a temporary file beside
 * the target and renamed over it, so the tiles endpoint serves either no
 * archive or a whole one.
 */

/** The archive's name at /v2/tiles/{name}. */
export const STARTER_BASEMAP = 'starter';
export const BASEMAP_MIN_ZOOM = 0;
/** Street level: MapLibre overzooms z14 tiles beyond it. */
export const BASEMAP_MAX_ZOOM = 14;
/** The national layers make tiles of their own up to here (a client overzooms them); deeper, only under the streets. */
export const NATIONAL_LEAD_TO = 10;
/** Written into the archive's metadata: a start finding an older build of its own rebuilds it. */
export const BASEMAP_GENERATOR = 'location-api starter basemap';
export const BASEMAP_VERSION = 2;

export interface BasemapProgress {
  phase: 'reading roads' | 'reading boundaries' | 'reading places' | 'tiling' | 'writing' | 'glyphs';
  done: number;
  total: number;
}

export interface BasemapBuild {
  file: string;
  tiles: number;
  bytes: number;
  road_features: number;
  national_road_features: number;
  boundary_features: number;
  place_features: number;
  water_labels: number;
  /** Glyph ranges made now (those already in the folder are kept). */
  glyph_ranges: number;
  /** Where the time went, ms: reading the sources, slicing and encoding the tiles, writing, drawing glyphs. */
  phases_ms: { read: number; tile: number; write: number; glyphs: number };
  ms: number;
}

export interface BasemapSources {
  roads: string[];
  /** National road network (ADR 35's backbone): drawn outside the streets' coverage, with its refs. */
  backbone: string[];
  boundaries: string[];
  /** GeoNames dumps: populated places and named water. */
  geonames: string[];
  /** OSM files whose `place=*` nodes are localities (the pack's landmarks). */
  placeNodes: string[];
  attribution: string[];
  /** Where the glyph ranges the labels need are written (DATA_DIR/glyphs); none without it. */
  glyphsDir?: string;
}

/** The pack files the basemap is made of, with their attribution lines. */
export function basemapSources(packDir: string, manifest: PackManifest, glyphsDir?: string): BasemapSources {
  const of = (kind: string) => manifest.datasets.filter((dataset) => dataset.kind === kind);
  const files = (kind: string) => of(kind).flatMap((dataset) => dataset.files.map((file) => path.join(packDir, file)));
  const used = ['roads', 'roads-backbone', 'boundaries', 'places', 'landmarks'].flatMap(of);
  return {
    roads: files('roads'),
    backbone: files('roads-backbone'),
    boundaries: files('boundaries'),
    geonames: files('places'),
    placeNodes: files('landmarks'),
    attribution: [...new Set(used.flatMap((dataset) => dataset.attribution))],
    ...(glyphsDir ? { glyphsDir } : {}),
  };
}

export async function buildBasemap(sources: BasemapSources, outFile: string, onProgress?: (progress: BasemapProgress) => void): Promise<BasemapBuild> {
  const started = Date.now();
  const roads: Feature[] = [];
  for (const [i, file] of sources.roads.entries()) {
    roads.push(...(await roadFeatures(file, (done, total) => onProgress?.({ phase: 'reading roads', done: i * total + done, total: sources.roads.length * total }))));
  }
  const backbone: Feature[] = [];
  for (const file of sources.backbone) backbone.push(...(await roadFeatures(file, () => undefined)));
  const nationalRoads = outsideCoverage(backbone, coverageOf(roads));
  onProgress?.({ phase: 'reading roads', done: 1, total: 1 });
  const boundaries: Feature[] = [];
  for (const [i, file] of sources.boundaries.entries()) {
    boundaries.push(...boundaryFeatures(JSON.parse(gunzipIfNeeded(await readFile(file)).toString('utf8')) as { features?: Feature[] }));
    onProgress?.({ phase: 'reading boundaries', done: i + 1, total: sources.boundaries.length });
  }
  const boundaryLabels = boundaries.flatMap((area): Feature[] => {
    const at = labelPoint(area.geometry);
    return at ? [{ type: 'Feature', properties: area.properties, geometry: { type: 'Point', coordinates: at } }] : [];
  });
  const places = new Gazetteer();
  for (const file of sources.placeNodes) await places.readOsm(file);
  const water: Feature[] = [];
  for (const file of sources.geonames) water.push(...places.readGeonames(gunzipIfNeeded(await readFile(file)).toString('utf8')));
  const placeFeatures = places.features();
  onProgress?.({ phase: 'reading places', done: 1, total: 1 });
  const read = Date.now();

  const layers: VectorLayer[] = [
    {
      name: 'boundaries',
      features: boundaries,
      leadsTo: NATIONAL_LEAD_TO,
      description: 'Administrative regions (admin_level 1) and districts (admin_level 2)',
      fields: { admin_level: 'Number', name: 'String', pcode: 'String' },
    },
    {
      name: 'boundary_labels',
      features: boundaryLabels,
      leadsTo: NATIONAL_LEAD_TO,
      description: 'A label point inside each region and district',
      fields: { admin_level: 'Number', name: 'String', pcode: 'String' },
    },
    {
      name: 'national_roads',
      features: nationalRoads,
      leadsTo: NATIONAL_LEAD_TO,
      description: 'The national road network (trunk N, inter-regional IR, regional R roads), left out where the detailed roads are',
      fields: { class: 'String: trunk, primary, secondary', ref: 'String', surface: 'String' },
    },
    {
      name: 'places',
      features: placeFeatures,
      leadsTo: NATIONAL_LEAD_TO,
      minZoomOf: (feature) => PLACE_MIN_ZOOM[(feature.properties as { rank: number }).rank] ?? NATIONAL_LEAD_TO,
      description: 'Localities: capital, city, town, suburb, village, hamlet, with rank 0 (capital) to 5',
      fields: { name: 'String', kind: 'String', rank: 'Number', population: 'Number' },
    },
    {
      name: 'water_labels',
      features: water,
      leadsTo: NATIONAL_LEAD_TO,
      description: 'Named lakes, lagoons, reservoirs and bays (points)',
      fields: { name: 'String', kind: 'String' },
    },
    {
      name: 'roads',
      features: roads,
      leadsTo: BASEMAP_MAX_ZOOM,
      description: 'OpenStreetMap highway ways by class',
      fields: { class: 'String: motorway, trunk, primary, secondary, tertiary, minor, service, path', link: 'Boolean', name: 'String', ref: 'String', oneway: 'Boolean' },
    },
  ];
  const roadBox = roads.length ? bboxCenter(roads) : null;
  const built = buildVectorArchive({
    layers,
    minZoom: BASEMAP_MIN_ZOOM,
    maxZoom: BASEMAP_MAX_ZOOM,
    center: roadBox ? { ...roadBox, zoom: 12 } : undefined,
    metadata: {
      name: 'starter',
      description: 'The starter region: roads, places, water names and administrative boundaries, with labels',
      attribution: sources.attribution.join('; '),
      type: 'baselayer',
      generator: BASEMAP_GENERATOR,
      generator_version: BASEMAP_VERSION,
    },
    onProgress: (zoom) => onProgress?.({ phase: 'tiling', done: zoom - BASEMAP_MIN_ZOOM + 1, total: BASEMAP_MAX_ZOOM - BASEMAP_MIN_ZOOM + 1 }),
  });
  const tiled = Date.now();
  onProgress?.({ phase: 'writing', done: 0, total: 1 });
  await writeAtomically(outFile, built.archive);
  onProgress?.({ phase: 'writing', done: 1, total: 1 });
  const written = Date.now();
  let glyphRanges = 0;
  if (sources.glyphsDir) {
    const texts = function* () {
      for (const layer of layers) for (const feature of layer.features) for (const key of ['name', 'ref']) if (typeof feature.properties?.[key] === 'string') yield feature.properties[key] as string;
    };
    const starts = glyphRangesFor(texts());
    onProgress?.({ phase: 'glyphs', done: 0, total: starts.length });
    glyphRanges = await writeGlyphRanges(sources.glyphsDir, starts);
    onProgress?.({ phase: 'glyphs', done: starts.length, total: starts.length });
  }
  const done = Date.now();
  return {
    file: outFile,
    tiles: built.tiles,
    bytes: built.archive.length,
    road_features: roads.length,
    national_road_features: nationalRoads.length,
    boundary_features: boundaries.length,
    place_features: placeFeatures.length,
    water_labels: water.length,
    glyph_ranges: glyphRanges,
    phases_ms: { read: read - started, tile: tiled - read, write: written - tiled, glyphs: done - written },
    ms: done - started,
  };
}

/** Highway ways as lines, in one pass that keeps every node's position (the order of a file is not relied on; the pack's road files hold some 50,000 nodes). */
async function roadFeatures(file: string, progress: (done: number, total: number) => void): Promise<Feature[]> {
  const ways: Array<{ tags: Record<string, string>; refs: number[] }> = [];
  const positions = new Map<number, [number, number]>();
  await readOsm(
    file,
    {
      node(id, lat, lng) {
        positions.set(id, [lng, lat]);
      },
      way(_id, tags, refs) {
        if (!tags.highway || roadClass(tags.highway) === null || tags.area === 'yes') return;
        const nodes = refs();
        if (nodes.length >= 2) ways.push({ tags, refs: nodes });
      },
    },
    progress,
  );
  const features: Feature[] = [];
  for (const way of ways) {
    const coordinates = way.refs.map((ref) => positions.get(ref)).filter((at): at is [number, number] => Boolean(at));
    if (coordinates.length < 2) continue;
    const highway = way.tags.highway;
    const properties: Record<string, string | boolean> = { class: roadClass(highway)!, link: highway.endsWith('_link') };
    if (way.tags.name) properties.name = way.tags.name;
    if (way.tags.ref) properties.ref = way.tags.ref;
    if (way.tags.surface) properties.surface = way.tags.surface;
    if (way.tags.oneway === 'yes' || way.tags.oneway === '1' || way.tags.junction === 'roundabout') properties.oneway = true;
    features.push({ type: 'Feature', properties, geometry: { type: 'LineString', coordinates } });
  }
  return features;
}

/** 0.01° cells (≈1.1 km), as the routing graph's coverage of the detailed roads (docs/adr/0035). */
const CELL = 0.01;
const cellKey = (x: number, y: number) => `${x}:${y}`;

/** The cells the detailed roads cover: cells holding a road point (long segments mark the cells they cross). */
function coverageOf(roads: Feature[]): Set<string> {
  const cells = new Set<string>();
  for (const road of roads) {
    if (road.geometry.type !== 'LineString') continue;
    const line = road.geometry.coordinates;
    for (let i = 0; i < line.length; i++) {
      const [lng, lat] = line[i];
      cells.add(cellKey(Math.floor(lng / CELL), Math.floor(lat / CELL)));
      const next = line[i + 1];
      if (!next) continue;
      const steps = Math.ceil(Math.max(Math.abs(next[0] - lng), Math.abs(next[1] - lat)) / (CELL / 2));
      for (let k = 1; k < steps; k++) cells.add(cellKey(Math.floor((lng + ((next[0] - lng) * k) / steps) / CELL), Math.floor((lat + ((next[1] - lat) * k) / steps) / CELL)));
    }
  }
  return cells;
}

/** A point is covered in a covered cell, or with covered cells on both sides within 3 cells (west–east or south–north): a city's main roads leave empty cells between them. */
function covered(cells: Set<string>, lng: number, lat: number): boolean {
  if (cells.size === 0) return false;
  const x = Math.floor(lng / CELL);
  const y = Math.floor(lat / CELL);
  if (cells.has(cellKey(x, y))) return true;
  const side = (dx: number, dy: number) => [1, 2, 3].some((k) => cells.has(cellKey(x + dx * k, y + dy * k)));
  return (side(-1, 0) && side(1, 0)) || (side(0, -1) && side(0, 1));
}

/**
 * The national roads outside the detailed roads' coverage (the detailed data
 * wins where it exists, as in routing): each run of points outside becomes a
 * line, reaching one point into the coverage at each end so it meets the streets.
 */
function outsideCoverage(lines: Feature[], cells: Set<string>): Feature[] {
  const out: Feature[] = [];
  for (const line of lines) {
    if (line.geometry.type !== 'LineString') continue;
    const points = line.geometry.coordinates;
    const inside = points.map(([lng, lat]) => covered(cells, lng, lat));
    let from = -1;
    for (let i = 0; i <= points.length; i++) {
      if (i < points.length && !inside[i]) {
        if (from < 0) from = i;
        continue;
      }
      if (from >= 0) {
        const run = points.slice(Math.max(0, from - 1), Math.min(points.length, i + 1));
        if (run.length >= 2) out.push({ type: 'Feature', properties: line.properties, geometry: { type: 'LineString', coordinates: run } });
        from = -1;
      }
    }
  }
  return out;
}

/**
 * Where an area's name goes: on the latitude of its largest part's centroid,
 * the middle of the widest stretch of that latitude inside the part (always
 * inside, unlike a centroid of a crescent-shaped district).
 */
export function labelPoint(geometry: Geometry): [number, number] | null {
  const parts = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.type === 'MultiPolygon' ? geometry.coordinates : [];
  let best: { rings: Position[][]; area: number } | null = null;
  for (const rings of parts) {
    const area = Math.abs(ringArea(rings[0] ?? []));
    if (!best || area > best.area) best = { rings, area };
  }
  if (!best || best.area === 0) return null;
  const outer = best.rings[0];
  let cx = 0;
  let cy = 0;
  let twiceArea = 0;
  for (let i = 0, j = outer.length - 1; i < outer.length; j = i++) {
    const cross = outer[j][0] * outer[i][1] - outer[i][0] * outer[j][1];
    twiceArea += cross;
    cx += (outer[j][0] + outer[i][0]) * cross;
    cy += (outer[j][1] + outer[i][1]) * cross;
  }
  const y = cy / (3 * twiceArea);
  const x = cx / (3 * twiceArea);
  const crossings: number[] = [];
  for (const ring of best.rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [x1, y1] = ring[j];
      const [x2, y2] = ring[i];
      if (y1 > y !== y2 > y) crossings.push(x1 + ((y - y1) / (y2 - y1)) * (x2 - x1));
    }
  }
  crossings.sort((a, b) => a - b);
  let widest: [number, number] | null = null;
  for (let i = 0; i + 1 < crossings.length; i += 2) {
    if (!widest || crossings[i + 1] - crossings[i] > widest[1] - widest[0]) widest = [crossings[i], crossings[i + 1]];
  }
  return widest ? [round6((widest[0] + widest[1]) / 2), round6(y)] : [round6(x), round6(y)];
}

function ringArea(ring: Position[]): number {
  let area = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) area += ring[j][0] * ring[i][1] - ring[i][0] * ring[j][1];
  return area / 2;
}

const round6 = (value: number) => Math.round(value * 1e6) / 1e6;

/** Ranks of localities: 0 the capital … 5 hamlets; the least zoom each is in the tiles (the style shows them later still). */
const PLACE_RANK: Record<string, number> = { capital: 0, city: 1, town: 2, suburb: 3, village: 4, island: 4, hamlet: 5, neighbourhood: 5, quarter: 5, locality: 5 };
const PLACE_MIN_ZOOM = [0, 4, 6, NATIONAL_LEAD_TO, 9, NATIONAL_LEAD_TO];
/** GeoNames feature codes of water named on the map (points: no water areas are in the pack). */
const WATER_CODES: Record<string, string> = { LK: 'lake', LKI: 'lake', LKS: 'lake', RSV: 'reservoir', LGN: 'lagoon', BAY: 'bay' };

interface Place {
  name: string;
  kind: string;
  rank: number;
  population: number;
  lng: number;
  lat: number;
}

/**
 * Localities from OpenStreetMap `place=*` nodes and GeoNames populated places:
 * the same name within ~5 km is one place (OSM's position, the higher rank,
 * the larger population).
 */
class Gazetteer {
  private readonly byName = new Map<string, Place[]>();

  async readOsm(file: string): Promise<void> {
    await readOsm(file, {
      node: (_id, lat, lng, tags) => {
        const kind = tags?.place;
        const name = tags?.name;
        if (!kind || !name || PLACE_RANK[kind] === undefined) return;
        const population = Number.parseInt(tags.population ?? '', 10);
        this.add({ name, kind, rank: PLACE_RANK[kind], population: Number.isFinite(population) ? population : 0, lng, lat });
      },
    });
  }

  /** Populated places into the gazetteer; returns the named water points. */
  readGeonames(text: string): Feature[] {
    const water: Feature[] = [];
    for (const line of text.split('\n')) {
      const column = line.split('\t');
      if (column.length < 15) continue;
      const [name, lat, lng, featureClass, code] = [column[1], Number(column[4]), Number(column[5]), column[6], column[7]];
      if (!name || !Number.isFinite(lat) || !Number.isFinite(lng)) continue;
      const population = Number(column[14]) || 0;
      if (featureClass === 'H' && WATER_CODES[code]) {
        water.push({ type: 'Feature', properties: { name, kind: WATER_CODES[code] }, geometry: { type: 'Point', coordinates: [lng, lat] } });
        continue;
      }
      if (featureClass !== 'P') continue;
      const kind =
        code === 'PPLC' ? 'capital'
        : code === 'PPLA' ? 'city'
        : code === 'PPLA2' ? 'town'
        : code === 'PPLX' ? 'suburb'
        : code === 'PPL' ? (population >= 100_000 ? 'city' : population >= 10_000 ? 'town' : 'village')
        : null; // abandoned, historical, destroyed places are not drawn
      if (kind) this.add({ name, kind, rank: PLACE_RANK[kind], population, lng, lat });
    }
    return water;
  }

  private add(place: Place): void {
    const key = place.name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    const same = this.byName.get(key);
    const twin = same?.find((other) => Math.abs(other.lng - place.lng) < 0.05 && Math.abs(other.lat - place.lat) < 0.05);
    if (twin) {
      if (place.rank < twin.rank) Object.assign(twin, { kind: place.kind, rank: place.rank });
      twin.population = Math.max(twin.population, place.population);
    } else if (same) same.push(place);
    else this.byName.set(key, [place]);
  }

  /** The places, most important first (MapLibre places labels in that order where they collide). */
  features(): Feature[] {
    return [...this.byName.values()]
      .flat()
      .sort((a, b) => a.rank - b.rank || b.population - a.population || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((place) => ({
        type: 'Feature',
        properties: { name: place.name, kind: place.kind, rank: place.rank, ...(place.population > 0 ? { population: place.population } : {}) },
        geometry: { type: 'Point', coordinates: [place.lng, place.lat] },
      }));
  }
}

const CLASSES: Record<string, string> = {
  motorway: 'motorway', trunk: 'trunk', primary: 'primary', secondary: 'secondary', tertiary: 'tertiary',
  residential: 'minor', unclassified: 'minor', living_street: 'minor', road: 'minor',
  service: 'service', track: 'service',
  pedestrian: 'path', footway: 'path', path: 'path', cycleway: 'path', steps: 'path', bridleway: 'path',
};

/** The basemap's road class of an OSM `highway` value (links take their road's class), or null for what is not drawn (crossings, signals, proposed roads). */
export function roadClass(highway: string): string | null {
  return CLASSES[highway.replace(/_link$/, '')] ?? null;
}

/** OCHA COD properties (`ADM1_EN`, `ADM2_EN`, `*_PCODE`) or OSM-style `name` + `admin_level`. */
function boundaryFeatures(collection: { features?: Feature[] }): Feature[] {
  return (collection.features ?? []).flatMap((feature): Feature[] => {
    if (!feature.geometry) return [];
    const p = (feature.properties ?? {}) as Record<string, unknown>;
    const level = p.ADM2_EN !== undefined ? 2 : p.ADM1_EN !== undefined ? 1 : Number(p.admin_level) || 0;
    const name = (level === 2 ? p.ADM2_EN : level === 1 ? p.ADM1_EN : p.name) ?? '';
    const pcode = (level === 2 ? p.ADM2_PCODE : p.ADM1_PCODE) ?? '';
    return [{ type: 'Feature', properties: { admin_level: level, name: String(name), pcode: String(pcode) }, geometry: feature.geometry }];
  });
}

function bboxCenter(features: Feature[]): { lat: number; lng: number } {
  let [west, south, east, north] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const feature of features) {
    if (feature.geometry.type !== 'LineString') continue;
    for (const [lng, lat] of feature.geometry.coordinates) {
      west = Math.min(west, lng);
      east = Math.max(east, lng);
      south = Math.min(south, lat);
      north = Math.max(north, lat);
    }
  }
  return { lat: (south + north) / 2, lng: (west + east) / 2 };
}

function gunzipIfNeeded(data: Buffer): Buffer {
  return data[0] === 0x1f && data[1] === 0x8b ? gunzipSync(data) : data;
}

async function writeAtomically(file: string, data: Buffer): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  // Not *.pmtiles: the listing never shows a half-written archive.
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(temporary, data, { flush: true });
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/**
 * Whether `file` is a starter basemap this service built in an older version
 * (version 1 wrote no generator: it is known by its description), which a
 * start replaces; an operator's own archive is never one.
 */
export async function isOutdatedStarterBasemap(file: string): Promise<boolean> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(file, 'r');
    const header = Buffer.alloc(127);
    await handle.read(header, 0, 127, 0);
    if (header.toString('ascii', 0, 7) !== 'PMTiles') return false;
    const offset = Number(header.readBigUInt64LE(24));
    const length = Number(header.readBigUInt64LE(32));
    if (length > 1 << 20) return false;
    const bytes = Buffer.alloc(length);
    await handle.read(bytes, 0, length, offset);
    const metadata = JSON.parse((header[97] === 2 ? gunzipSync(bytes) : bytes).toString('utf8')) as { generator?: unknown; generator_version?: unknown; name?: unknown; description?: unknown };
    if (metadata.generator === BASEMAP_GENERATOR) return typeof metadata.generator_version === 'number' && metadata.generator_version < BASEMAP_VERSION;
    return metadata.generator === undefined && metadata.name === STARTER_BASEMAP && metadata.description === 'The starter region: roads and administrative boundaries';
  } catch {
    return false;
  } finally {
    await handle?.close();
  }
}

export class BasemapAbortedError extends Error {}

/**
 * The build off the event loop: a worker thread running the compiled
 * `basemap.worker.js`, terminated when `signal` aborts. Tests run the
 * TypeScript sources, which a worker cannot load without a loader; there it
 * runs in-process (as the road graph preparation does).
 */
export function buildBasemapInWorker(sources: BasemapSources, outFile: string, onProgress?: (progress: BasemapProgress) => void, signal?: AbortSignal): Promise<BasemapBuild> {
  const self = import.meta.url;
  if (self.endsWith('.ts')) {
    return buildBasemap(sources, outFile, (progress) => {
      if (signal?.aborted) throw new BasemapAbortedError('basemap build aborted');
      onProgress?.(progress);
    });
  }
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('../basemap/basemap.worker.js', self), { workerData: { sources, outFile } });
    const abort = () => {
      reject(new BasemapAbortedError('basemap build aborted'));
      void worker.terminate();
    };
    signal?.addEventListener('abort', abort, { once: true });
    worker.on('message', (message: { progress?: BasemapProgress; ok?: boolean; build?: BasemapBuild; error?: string }) => {
      if (message.progress) onProgress?.(message.progress);
      else if (message.ok) resolve(message.build!);
      else reject(new Error(message.error));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      signal?.removeEventListener('abort', abort);
      if (code !== 0) reject(new Error(`basemap build exited with ${code}`));
    });
  });
}
