import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { gunzipSync } from 'node:zlib';
import type { Feature } from 'geojson';
import { readOsm } from '../../../reference-data/src/index.js';
import { buildVectorArchive, type VectorLayer } from '../../../tiles/src/index.js';
import type { PackManifest } from './pack.js';

/**
 * The starter region's vector basemap (docs/adr/0027), built on first start
 * from the pack's files: the roads (OSM XML) as the `roads` layer, by class,
 * and the regions and districts (GeoJSON) as the `boundaries` layer. Written
 * to a temporary file beside the target and renamed over it, so the tiles
 * endpoint serves either no archive or a whole one.
 */

/** The archive's name at /v2/tiles/{name}. */
export const STARTER_BASEMAP = 'starter';
export const BASEMAP_MIN_ZOOM = 0;
/** Street level: MapLibre overzooms z14 tiles beyond it. */
export const BASEMAP_MAX_ZOOM = 14;
/** Boundaries make tiles of their own up to here; deeper, only under the roads. */
const BOUNDARIES_LEAD_TO = 10;

export interface BasemapProgress {
  phase: 'reading roads' | 'reading boundaries' | 'tiling' | 'writing';
  done: number;
  total: number;
}

export interface BasemapBuild {
  file: string;
  tiles: number;
  bytes: number;
  road_features: number;
  boundary_features: number;
  ms: number;
}

export interface BasemapSources {
  roads: string[];
  boundaries: string[];
  attribution: string[];
}

/** The pack files the basemap is made of, with their attribution lines. */
export function basemapSources(packDir: string, manifest: PackManifest): BasemapSources {
  const of = (kind: string) => manifest.datasets.filter((dataset) => dataset.kind === kind);
  const used = [...of('roads'), ...of('boundaries')];
  return {
    roads: of('roads').flatMap((dataset) => dataset.files.map((file) => path.join(packDir, file))),
    boundaries: of('boundaries').flatMap((dataset) => dataset.files.map((file) => path.join(packDir, file))),
    attribution: [...new Set(used.flatMap((dataset) => dataset.attribution))],
  };
}

export async function buildBasemap(sources: BasemapSources, outFile: string, onProgress?: (progress: BasemapProgress) => void): Promise<BasemapBuild> {
  const started = Date.now();
  const roads: Feature[] = [];
  for (const [i, file] of sources.roads.entries()) {
    roads.push(...(await roadFeatures(file, (done, total) => onProgress?.({ phase: 'reading roads', done: i * total + done, total: sources.roads.length * total }))));
  }
  const boundaries: Feature[] = [];
  for (const [i, file] of sources.boundaries.entries()) {
    boundaries.push(...boundaryFeatures(JSON.parse(gunzipIfNeeded(await readFile(file)).toString('utf8')) as { features?: Feature[] }));
    onProgress?.({ phase: 'reading boundaries', done: i + 1, total: sources.boundaries.length });
  }
  const layers: VectorLayer[] = [
    {
      name: 'boundaries',
      features: boundaries,
      leadsTo: BOUNDARIES_LEAD_TO,
      description: 'Administrative regions (admin_level 1) and districts (admin_level 2)',
      fields: { admin_level: 'Number', name: 'String', pcode: 'String' },
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
    metadata: { name: 'starter', description: 'The starter region: roads and administrative boundaries', attribution: sources.attribution.join('; '), type: 'baselayer' },
    onProgress: (zoom) => onProgress?.({ phase: 'tiling', done: zoom - BASEMAP_MIN_ZOOM + 1, total: BASEMAP_MAX_ZOOM - BASEMAP_MIN_ZOOM + 1 }),
  });
  onProgress?.({ phase: 'writing', done: 0, total: 1 });
  await writeAtomically(outFile, built.archive);
  onProgress?.({ phase: 'writing', done: 1, total: 1 });
  return { file: outFile, tiles: built.tiles, bytes: built.archive.length, road_features: roads.length, boundary_features: boundaries.length, ms: Date.now() - started };
}

/** Highway ways as lines; positions in a second pass that reads only nodes (the order of a file is not relied on). */
async function roadFeatures(file: string, progress: (done: number, total: number) => void): Promise<Feature[]> {
  const ways: Array<{ tags: Record<string, string>; refs: number[] }> = [];
  await readOsm(
    file,
    {
      way(_id, tags, refs) {
        if (!tags.highway || roadClass(tags.highway) === null || tags.area === 'yes') return;
        const nodes = refs();
        if (nodes.length >= 2) ways.push({ tags, refs: nodes });
      },
    },
    (done, total) => progress(done / 2, total),
  );
  const positions = new Map<number, [number, number] | null>();
  for (const way of ways) for (const ref of way.refs) positions.set(ref, null);
  await readOsm(
    file,
    {
      node(id, lat, lng) {
        if (positions.has(id)) positions.set(id, [lng, lat]);
      },
    },
    (done, total) => progress(total / 2 + done / 2, total),
  );
  const features: Feature[] = [];
  for (const way of ways) {
    const coordinates = way.refs.map((ref) => positions.get(ref)).filter((at): at is [number, number] => Boolean(at));
    if (coordinates.length < 2) continue;
    const highway = way.tags.highway;
    const properties: Record<string, string | boolean> = { class: roadClass(highway)!, link: highway.endsWith('_link') };
    if (way.tags.name) properties.name = way.tags.name;
    if (way.tags.ref) properties.ref = way.tags.ref;
    if (way.tags.oneway === 'yes' || way.tags.oneway === '1' || way.tags.junction === 'roundabout') properties.oneway = true;
    features.push({ type: 'Feature', properties, geometry: { type: 'LineString', coordinates } });
  }
  return features;
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
