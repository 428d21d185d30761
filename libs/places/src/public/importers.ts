import { stat } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { AdminAreas, boundaryFromFeature, type Boundary } from '../domain/admin-areas.js';
import { placeFromGeoNames } from '../domain/geonames.js';
import { placeFromOsm, poiFeature, type OsmTags } from '../domain/osm-tags.js';
import { ATTRIBUTION, type Place } from '../domain/place.js';
import {
  DATASET_NAME,
  DatasetImportError,
  type DatasetImportOptions,
  type DatasetImportProgress,
  type DatasetImportResult,
  type DatasetStore,
  type DatasetWriter,
} from '../../../platform/src/index.js';
import { openSource, osmReaderFor, readSource, sourceFile } from '../../../reference-data/src/index.js';

/**
 * The importers behind `npm run ops -- import:geonames|import:osm|import:boundaries`
 * (docs/adr/0011). Each streams its source, gives every place its region and
 * district from the live boundaries dataset, and commits a new dataset version;
 * an import that finds nothing fails rather than replacing good data with none.
 */

export type ImportProgress = DatasetImportProgress;

/** `dataset`: the place set's name under `places/` (default: the source's name). */
export interface ImportOptions extends DatasetImportOptions {
  /**
   * Boundaries only: also rewrite every live place set with the new region and
   * district names (default true). The starter (docs/adr/0017) passes false: it
   * never writes a new version of a place set it did not import.
   */
  reannotate?: boolean;
}

export type ImportResult = DatasetImportResult;

export class ImportError extends DatasetImportError {}

const BOUNDARIES = 'boundaries';
/** The boundaries dataset (region and district areas). */
export const BOUNDARIES_DATASET = BOUNDARIES;
export const PLACES = 'places';
/** A GeoJSON boundaries file is parsed whole; larger than this, simplify it first (mapshaper, ogr2ogr -simplify). */
const MAX_BOUNDARY_FILE_BYTES = 512 * 1024 * 1024;

export async function importGeoNames(store: DatasetStore, file: string, options: ImportOptions = {}): Promise<ImportResult> {
  const dataset = placeDataset(options.dataset ?? 'geonames');
  const source = await sourceFile(file);
  const total = source.size;
  const admin = await loadAdminAreas(store);
  const writer = await store.begin(dataset);
  const stats: Record<string, number> = { rows: 0, places: 0, skipped_rows: 0, with_admin_names: 0 };
  try {
    const { input, file: raw } = openSource(source);
    let lines = 0;
    // Characters of the lines handled so far: the stream's own count runs a megabyte ahead (compressed: the file's bytes read).
    let consumed = 0;
    for await (const line of createInterface({ input, crlfDelay: Infinity })) {
      consumed = source.gzip ? raw.bytesRead : consumed + line.length + 1;
      if (line === '' || line.startsWith('#')) continue;
      stats.rows++;
      const place = placeFromGeoNames(line.split('\t'));
      if (!place) stats.skipped_rows++;
      else add(writer, annotate(place, admin, stats), stats);
      if (++lines % 2000 === 0) {
        await writer.flushIfFull();
        options.onProgress?.({ phase: 'reading', done: Math.min(consumed, total), total, records: writer.records });
      }
    }
    options.onProgress?.({ phase: 'reading', done: total, total, records: writer.records });
    if (stats.places === 0) throw new ImportError(`no place in ${path.basename(file)} (${stats.rows} rows): is it a GeoNames dump (19 tab-separated columns)?`);
    return { version: await writer.commit({ sources: [path.basename(file)], attribution: [ATTRIBUTION.geonames], stats }, options.beforeSwitch), stats };
  } catch (error) {
    await writer.abort();
    throw error;
  }
}

/**
 * OpenStreetMap POIs from `.osm` XML or `.osm.pbf` (told apart by their first
 * byte): named nodes with a POI tag (see domain/osm-tags.ts), and named POI
 * ways at the mean of their nodes. Nodes precede ways in both formats, so the
 * ways' node positions take a second pass that reads only nodes and stops once
 * every needed one is found.
 */
export async function importOsm(store: DatasetStore, file: string, options: ImportOptions = {}): Promise<ImportResult> {
  const dataset = placeDataset(options.dataset ?? 'osm');
  const read = await osmReaderFor(file);
  const admin = await loadAdminAreas(store);
  const writer = await store.begin(dataset);
  const stats: Record<string, number> = { nodes: 0, ways: 0, places: 0, poi_nodes: 0, poi_ways: 0, ways_without_nodes: 0, with_admin_names: 0 };
  const progress = (phase: string) => (done: number, total: number) => options.onProgress?.({ phase, done, total, records: writer.records });
  try {
    const ways: Array<{ id: number; tags: OsmTags; refs: number[] }> = [];
    const needed = new Map<number, number>();
    await read(
      file,
      {
        node(id, lat, lng, tags) {
          stats.nodes++;
          if (!tags) return;
          const place = placeFromOsm('node', id, tags, lat, lng);
          if (!place) return;
          stats.poi_nodes++;
          add(writer, annotate(place, admin, stats), stats);
        },
        way(id, tags, refs) {
          stats.ways++;
          if (!poiFeature(tags)) return;
          const nodes = refs();
          ways.push({ id, tags, refs: nodes });
          for (const ref of nodes) needed.set(ref, -1);
        },
        afterBlock: () => writer.flushIfFull(),
      },
      progress('reading'),
    );

    if (ways.length > 0) {
      // Positions as fixed-point pairs in one typed array: two Int32 per needed node.
      const positions = new Int32Array(needed.size * 2);
      let found = 0;
      let slot = 0;
      for (const ref of needed.keys()) needed.set(ref, slot++);
      const seen = new Uint8Array(needed.size);
      await read(
        file,
        {
          node(id, lat, lng) {
            const at = needed.get(id);
            if (at === undefined || seen[at]) return;
            seen[at] = 1;
            positions[2 * at] = Math.round(lat * 1e7);
            positions[2 * at + 1] = Math.round(lng * 1e7);
            found++;
          },
          finished: () => found === needed.size,
        },
        progress('way positions (second pass)'),
      );
      // The pass stops once every position is found, usually before the end of the file.
      const size = (await stat(file)).size;
      progress('way positions (second pass)')(size, size);
      for (const way of ways) {
        const distinct = way.refs.length > 1 && way.refs[0] === way.refs[way.refs.length - 1] ? way.refs.slice(1) : way.refs;
        let lat = 0;
        let lng = 0;
        let count = 0;
        for (const ref of distinct) {
          const at = needed.get(ref)!;
          if (!seen[at]) continue;
          lat += positions[2 * at];
          lng += positions[2 * at + 1];
          count++;
        }
        if (count === 0) {
          stats.ways_without_nodes++;
          continue;
        }
        const place = placeFromOsm('way', way.id, way.tags, lat / count / 1e7, lng / count / 1e7);
        if (!place) continue;
        stats.poi_ways++;
        add(writer, annotate(place, admin, stats), stats);
        await writer.flushIfFull();
      }
    }
    if (stats.places === 0) throw new ImportError(`no named point of interest in ${path.basename(file)} (${stats.nodes} nodes, ${stats.ways} tagged ways)`);
    return { version: await writer.commit({ sources: [path.basename(file)], attribution: [ATTRIBUTION.osm], stats }, options.beforeSwitch), stats };
  } catch (error) {
    await writer.abort();
    throw error;
  }
}

/**
 * Admin boundaries from GeoJSON files (one version from all of them, e.g. the
 * regions and the districts), then every live place set again with the new
 * region and district names, so the two never disagree.
 */
export async function importBoundaries(store: DatasetStore, files: string[], options: ImportOptions = {}): Promise<ImportResult> {
  if (files.length === 0) throw new ImportError('no file given');
  const writer = await store.begin(BOUNDARIES);
  const stats: Record<string, number> = { features: 0, level_1: 0, level_2: 0, skipped_features: 0 };
  const boundaries: Boundary[] = [];
  try {
    for (const [index, file] of files.entries()) {
      const source = await sourceFile(file);
      if (source.size > MAX_BOUNDARY_FILE_BYTES) throw new ImportError(`${path.basename(file)} is ${source.size} bytes; simplify it below ${MAX_BOUNDARY_FILE_BYTES} first`);
      let document: unknown;
      try {
        document = JSON.parse((await readSource(source)).toString('utf8'));
      } catch (error) {
        throw new ImportError(`${path.basename(file)} is not JSON: ${(error as Error).message}`);
      }
      const features = (document as { type?: unknown; features?: unknown }).features;
      if ((document as { type?: unknown }).type !== 'FeatureCollection' || !Array.isArray(features)) throw new ImportError(`${path.basename(file)} is not a GeoJSON FeatureCollection`);
      for (const feature of features) {
        stats.features++;
        const boundary = boundaryFromFeature(feature);
        if (!boundary) {
          stats.skipped_features++;
          continue;
        }
        stats[`level_${boundary.level}`]++;
        boundaries.push(boundary);
        await writer.write(boundary);
      }
      options.onProgress?.({ phase: 'reading', done: index + 1, total: files.length, records: writer.records });
    }
    if (boundaries.length === 0) throw new ImportError('no admin boundary (ADM1_*/ADM2_* or name + admin_level 4/6 properties) in the given files');
    await writer.commit({ sources: files.map((file) => path.basename(file)), attribution: options.attribution ?? [], stats }, options.beforeSwitch);
  } catch (error) {
    await writer.abort();
    throw error;
  }
  const version = (await store.current(BOUNDARIES))!;
  const admin = new AdminAreas(boundaries);
  if (options.reannotate === false) return { version, stats };
  for (const dataset of await store.liveDatasets(PLACES)) stats[`reannotated:${dataset}`] = await reannotate(store, dataset, admin, options);
  return { version, stats };
}

/** A new version of a place set with region and district from `admin`; returns its record count. */
async function reannotate(store: DatasetStore, dataset: string, admin: AdminAreas, options: ImportOptions): Promise<number> {
  const current = await store.current(dataset);
  if (!current) return 0;
  const writer = await store.begin(dataset);
  const stats: Record<string, number> = { ...current.manifest.stats, with_admin_names: 0, places: 0 };
  try {
    for await (const place of store.records<Place>(current)) {
      add(writer, annotate({ ...place, region: null, district: null }, admin, stats), stats);
      if (writer.records % 2000 === 0) {
        await writer.flushIfFull();
        options.onProgress?.({ phase: dataset, done: writer.records, total: current.manifest.records, records: writer.records });
      }
    }
    options.onProgress?.({ phase: dataset, done: current.manifest.records, total: current.manifest.records, records: writer.records });
    await writer.commit({ sources: current.manifest.sources, attribution: current.manifest.attribution, stats });
    return writer.records;
  } catch (error) {
    await writer.abort();
    throw error;
  }
}

export async function loadAdminAreas(store: DatasetStore): Promise<AdminAreas | null> {
  const current = await store.current(BOUNDARIES);
  if (!current) return null;
  const boundaries: Boundary[] = [];
  for await (const boundary of store.records<Boundary>(current)) boundaries.push(boundary);
  return new AdminAreas(boundaries);
}

function placeDataset(name: string): string {
  const dataset = `places/${name}`;
  if (!DATASET_NAME.test(dataset) || name.includes('/')) throw new ImportError(`dataset name "${name}" must be 1-64 characters of a-z, 0-9, "_" and "-"`);
  return dataset;
}

function annotate(place: Place, admin: AdminAreas | null, stats: Record<string, number>): Place {
  if (!admin) return place;
  const names = admin.locate(place.lat, place.lng);
  if (names.region || names.district) stats.with_admin_names++;
  return { ...place, region: names.region, district: names.district };
}

function add(writer: DatasetWriter, place: Place, stats: Record<string, number>): void {
  writer.add(place);
  stats.places++;
}
