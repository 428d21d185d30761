import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { boundaryFromFeature } from '../../../places/src/index.js';
import { readOsm, type OsmTags } from '../../../reference-data/src/index.js';
import { ROLE_KINDS, sha256, STARTER_KINDS, StarterPackError, type PackDataset, type PackFile, type PackManifest, type Recipe, type RecipeSource, type StarterKind } from './pack.js';
import { gzipFixed } from '../build/gzip.js';
import { licencesText } from '../build/licences.js';
import { SqliteFile } from '../build/sqlite.js';
import { readZipEntries } from '../build/zip.js';

/**
 * `npm run ops -- starter:build DIR` (docs/adr/0017): the starter pack from
 * its recipe's source files. Reproducible: records in source or id order, tags
 * by key, no time anywhere, gzip with a fixed header and level; the same
 * sources and recipe give the same bytes (for one zlib version, which the
 * manifest records; `content_sha256` compares across versions).
 */

/** Bumped whenever the same inputs would give other output. */
export const BUILDER_VERSION = 1;
/** The backbone's tags the pack keeps: what routing reads, and `source`, which tells the importer whose attribution applies. */
const BACKBONE_TAGS = ['highway', 'ref', 'surface', 'smoothness', 'lanes', 'width', 'oneway', 'source'] as const;
/** How far a thinned backbone line may stray from the source's (m): well under the source's own offsets of tens of metres from the real road. */
const BACKBONE_TOLERANCE_M = 8;
/** Boundary coordinates are rounded to this many decimals (0.1 m): the source's 15 digits are float noise. */
const BOUNDARY_DECIMALS = 6;

export interface BuildOptions {
  recipe: Recipe;
  /** The recipe file as read: copied into the pack as `recipe.json`. */
  recipeText: string;
  sourcesDir: string;
  outDir: string;
  onProgress?: (line: string) => void;
}

interface OsmNode {
  lat: number;
  lng: number;
  tags: Record<string, string>;
}

export async function buildStarterPack(options: BuildOptions): Promise<PackManifest> {
  const { recipe, sourcesDir, outDir } = options;
  const say = options.onProgress ?? (() => undefined);
  const files = new Map<string, { data: Buffer; content: Buffer }>();
  const datasets: PackDataset[] = [];
  const put = (file: string, content: Buffer, compress: boolean) => {
    if (files.has(file)) throw new StarterPackError(`two sources would write ${file}: give them different file names`);
    files.set(file, { data: compress ? gzipFixed(content) : content, content });
    return file;
  };
  const sourcePath = (source: RecipeSource) => path.resolve(sourcesDir, source.file);
  const attribution = (sources: RecipeSource[]) => [...new Set(sources.map((source) => source.attribution))];

  const sources: PackManifest['sources'] = [];
  for (const source of recipe.sources) {
    const data = await readFile(sourcePath(source)).catch((error: NodeJS.ErrnoException) => {
      throw new StarterPackError(`source ${source.file} (${source.role}): ${error.code === 'ENOENT' ? `not found under ${sourcesDir}` : error.message}`);
    });
    sources.push({ role: source.role, file: source.file, bytes: data.length, sha256: sha256(data) });
    say(`source ${source.file}: ${data.length} bytes, sha256 ${sha256(data).slice(0, 12)}…`);
  }
  const byKind = (kind: StarterKind) => recipe.sources.filter((source) => ROLE_KINDS[source.role] === kind);

  const boundaries = byKind('boundaries');
  if (boundaries.length > 0) {
    const counts: Record<string, number> = { level_1: 0, level_2: 0 };
    const written: string[] = [];
    for (const source of boundaries) {
      const document = JSON.parse(await readFile(sourcePath(source), 'utf8')) as { type?: string; features?: unknown[] };
      if (document.type !== 'FeatureCollection' || !Array.isArray(document.features)) throw new StarterPackError(`${source.file} is not a GeoJSON FeatureCollection`);
      const features = document.features.map((feature) => roundGeometry(feature, BOUNDARY_DECIMALS));
      for (const feature of features) {
        const boundary = boundaryFromFeature(feature);
        if (boundary) counts[`level_${boundary.level}`]++;
      }
      const text = `{"type":"FeatureCollection","features":[\n${features.map((feature) => JSON.stringify(feature)).join(',\n')}\n]}\n`;
      written.push(put(`boundaries/${path.basename(source.file)}.gz`, Buffer.from(text, 'utf8'), true));
      say(`boundaries: ${source.file} → ${written.at(-1)} (${features.length} features)`);
    }
    datasets.push({ kind: 'boundaries', dataset: 'boundaries', files: written, attribution: attribution(boundaries), counts });
  }

  const gazetteers = byKind('places');
  if (gazetteers.length > 1) throw new StarterPackError('one geonames source at most: the importer reads one dump into places/geonames');
  for (const source of gazetteers) {
    const content = await readFile(sourcePath(source));
    const rows = content.toString('utf8').split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#')).length;
    const file = put(`places/${path.basename(source.file)}.gz`, content, true);
    say(`places: ${source.file} → ${file} (${rows} rows, unchanged)`);
    datasets.push({ kind: 'places', dataset: 'places/geonames', files: [file], attribution: attribution([source]), counts: { rows } });
  }

  const landmarkSources = byKind('landmarks');
  if (landmarkSources.length > 0) {
    // Merged by OSM node id: the first source (recipe order) that has a node gives its position and wins a tag both set.
    const nodes = new Map<number, OsmNode>();
    const counts: Record<string, number> = {};
    for (const source of landmarkSources) {
      let read = 0;
      const merge = (id: number, lat: number, lng: number, tags: Record<string, string>) => {
        read++;
        const known = nodes.get(id);
        if (!known) nodes.set(id, { lat, lng, tags });
        else for (const [key, value] of Object.entries(tags)) known.tags[key] ??= value;
      };
      if (source.role === 'landmarks-osm-sqlite') readSqlitePois(sourcePath(source), merge);
      else if (source.role === 'landmarks-osm-geojson') readHotPoints(sourcePath(source), await readFile(sourcePath(source), 'utf8'), merge);
      else {
        await readOsm(sourcePath(source), {
          node(id, lat, lng, tags) {
            if (tags?.name?.trim()) merge(id, lat, lng, { ...tags });
          },
        });
      }
      counts[`named_nodes:${path.basename(source.file)}`] = read;
      say(`landmarks: ${source.file}: ${read} named nodes`);
    }
    counts.nodes = nodes.size;
    const file = put('landmarks/osm-pois.osm.gz', osmXml(nodes, []), true);
    say(`landmarks: ${nodes.size} nodes after merging by id → ${file}`);
    datasets.push({ kind: 'landmarks', dataset: 'places/osm', files: [file], attribution: attribution(landmarkSources), counts: sortedCounts(counts) });
  }

  const roadSources = byKind('roads');
  if (roadSources.length > 0) {
    const allNodes = new Map<number, OsmNode>();
    const ways = new Map<number, { tags: OsmTags; refs: number[] }>();
    for (const source of roadSources) {
      await readOsm(sourcePath(source), {
        node(id, lat, lng, tags) {
          if (!allNodes.has(id)) allNodes.set(id, { lat, lng, tags: { ...tags } });
        },
        way(id, tags, refs) {
          if (tags.highway && !ways.has(id)) ways.set(id, { tags, refs: refs() });
        },
      });
    }
    const nodes = new Map<number, OsmNode>();
    let missing = 0;
    for (const way of ways.values()) {
      for (const ref of way.refs) {
        const node = allNodes.get(ref);
        if (node) nodes.set(ref, node);
        else missing++;
      }
    }
    if (missing > 0) say(`roads: ${missing} node references without their node (kept in the ways; the extract was cut there)`);
    const sortedWays = [...ways.entries()].sort(([a], [b]) => a - b);
    const file = put('roads/roads.osm.gz', osmXml(nodes, sortedWays), true);
    say(`roads: ${ways.size} highway ways, ${nodes.size} nodes → ${file}`);
    datasets.push({ kind: 'roads', dataset: 'roads', files: [file], attribution: attribution(roadSources), counts: { ways: ways.size, nodes: nodes.size } });
  }

  const backboneSources = byKind('roads-backbone');
  if (backboneSources.length > 0) {
    // The national backbone (docs/adr/0035): only what routing reads, so the pack stays small.
    const nodes = new Map<number, OsmNode>();
    const ways = new Map<number, { tags: OsmTags; refs: number[] }>();
    const needed = new Set<number>();
    for (const source of backboneSources) {
      await readOsm(sourcePath(source), {
        way(id, tags, refs) {
          if (!tags.highway || ways.has(id)) return;
          const kept: Record<string, string> = {};
          for (const key of BACKBONE_TAGS) if (tags[key] !== undefined) kept[key] = tags[key];
          const list = refs();
          ways.set(id, { tags: kept, refs: list });
          for (const ref of list) needed.add(ref);
        },
      });
      await readOsm(sourcePath(source), {
        node(id, lat, lng) {
          if (needed.has(id) && !nodes.has(id)) nodes.set(id, { lat: Math.round(lat * 1e6) / 1e6, lng: Math.round(lng * 1e6) / 1e6, tags: {} });
        },
      });
    }
    // Vertices that only shape a road are thinned (Douglas–Peucker, BACKBONE_TOLERANCE_M); ends and shared nodes stay.
    const uses = new Map<number, number>();
    for (const way of ways.values()) way.refs.forEach((ref, i) => uses.set(ref, (uses.get(ref) ?? 0) + (i === 0 || i === way.refs.length - 1 ? 2 : 1)));
    for (const way of ways.values()) way.refs = thin(way.refs, nodes, (ref) => (uses.get(ref) ?? 0) > 1);
    const kept = new Set<number>();
    for (const way of ways.values()) for (const ref of way.refs) kept.add(ref);
    for (const id of [...nodes.keys()]) if (!kept.has(id)) nodes.delete(id);
    const sortedWays = [...ways.entries()].sort(([a], [b]) => a - b);
    const file = put('roads/ghana-backbone.osm.gz', osmXml(nodes, sortedWays), true);
    say(`roads-backbone: ${ways.size} highway ways, ${nodes.size} nodes → ${file}`);
    datasets.push({ kind: 'roads-backbone', dataset: 'roads-backbone', files: [file], attribution: attribution(backboneSources), counts: { ways: ways.size, nodes: nodes.size } });
  }

  for (const source of byKind('transit')) {
    const content = await readFile(sourcePath(source));
    const counts: Record<string, number> = {};
    for (const [name, data] of [...readZipEntries(sourcePath(source)).entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      if (!name.endsWith('.txt')) continue;
      counts[name.slice(0, -4)] = Math.max(0, data.toString('utf8').split(/\r?\n/).filter((line) => line.trim() !== '').length - 1);
    }
    if (counts.stops === undefined) throw new StarterPackError(`${source.file} has no stops.txt: not a GTFS feed`);
    const file = put(`transit/${path.basename(source.file)}`, content, false);
    say(`transit: ${source.file} → ${file} (copied; ${counts.stops} stops, ${counts.routes ?? 0} routes, ${counts.trips ?? 0} trips)`);
    datasets.push({ kind: 'transit', dataset: 'transit/gtfs', files: [file], attribution: attribution([source]), counts });
  }

  datasets.sort((a, b) => STARTER_KINDS.indexOf(a.kind) - STARTER_KINDS.indexOf(b.kind));
  put('recipe.json', Buffer.from(options.recipeText, 'utf8'), false);
  put('LICENCES.md', Buffer.from(licencesText(recipe, datasets), 'utf8'), false);
  const manifest: PackManifest = {
    format: 1,
    name: recipe.name,
    title: recipe.title,
    covers: recipe.covers,
    builder: { command: 'npm run ops -- starter:build', version: BUILDER_VERSION, zlib: process.versions.zlib ?? 'unknown' },
    datasets,
    files: Object.fromEntries(
      [...files.keys()].sort().map((file): [string, PackFile] => {
        const { data, content } = files.get(file)!;
        return [file, { bytes: data.length, sha256: sha256(data), content_sha256: sha256(content) }];
      }),
    ),
    sources,
  };

  await mkdir(outDir, { recursive: true });
  // Files of a previous build that this one no longer writes go; nothing else in the folder is touched.
  const previous = await readFile(path.join(outDir, 'manifest.json'), 'utf8').then((text) => Object.keys((JSON.parse(text) as PackManifest).files ?? {}), () => [] as string[]);
  for (const file of previous) if (!files.has(file) && !file.includes('..')) await rm(path.join(outDir, file), { force: true });
  for (const [file, { data }] of files) {
    await mkdir(path.dirname(path.join(outDir, file)), { recursive: true });
    await writeFile(path.join(outDir, file), data);
  }
  await writeFile(path.join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const total = [...files.values()].reduce((sum, { data }) => sum + data.length, 0);
  say(`wrote ${files.size + 1} files, ${total} bytes, to ${outDir}`);
  return manifest;
}

/** The decompressed content of a pack file (tests compare builds made with different zlib versions). */
export function contentOf(data: Buffer, file: string): Buffer {
  return file.endsWith('.gz') ? gunzipSync(data) : data;
}

/**
 * Named rows of an OSM extract in SQLite (ObiWanLansi/GeoData's schema: one
 * POI tag per node in TAG/VALUE), as OSM tags; rowid order.
 */
function readSqlitePois(file: string, merge: (id: number, lat: number, lng: number, tags: Record<string, string>) => void): void {
  const db = new SqliteFile(file);
  try {
    for (const row of db.rows('NODE')) {
      const name = text(row.NAME);
      if (!name) continue;
      const tags: Record<string, string> = { name };
      const add = (key: string, value: unknown) => {
        const clean = text(value);
        if (clean) tags[key] = clean;
      };
      add('name:en', row.NAME_EN);
      add('name:de', row.NAME_DE);
      if (text(row.TAG)) add(text(row.TAG)!, row.VALUE);
      add('population', row.POPULATION);
      add('ele', row.ELEVATION);
      merge(Number(row.ID), Number(row.LAT), Number(row.LON), tags);
    }
  } finally {
    db.close();
  }
}

/** HOT export columns are shapefile-shortened (10 characters): their OSM keys. */
const HOT_KEYS: Record<string, string> = { addrcity: 'addr:city', addrfull: 'addr:full', addrstreet: 'addr:street', addrhousen: 'addr:housenumber', operatorty: 'operator:type', capacitype: 'capacity:persons' };

/** Named points of a HOT OSM export (GeoJSON with `osm_id`): node id, position and tags; file order. */
function readHotPoints(file: string, content: string, merge: (id: number, lat: number, lng: number, tags: Record<string, string>) => void): void {
  const document = JSON.parse(content) as { features?: Array<{ properties?: Record<string, unknown>; geometry?: { type?: string; coordinates?: unknown } }> };
  if (!Array.isArray(document.features)) throw new StarterPackError(`${file} is not a GeoJSON FeatureCollection`);
  for (const feature of document.features) {
    const properties = feature.properties ?? {};
    const id = Number(properties.osm_id);
    const coordinates = feature.geometry?.coordinates;
    if (feature.geometry?.type !== 'Point' || !Array.isArray(coordinates) || !Number.isSafeInteger(id) || id <= 0 || !text(properties.name)) continue;
    const tags: Record<string, string> = {};
    for (const [column, value] of Object.entries(properties)) {
      const clean = text(value);
      if (column !== 'osm_id' && column !== 'osm_type' && clean) tags[HOT_KEYS[column] ?? column] = clean;
    }
    merge(id, Number(coordinates[1]), Number(coordinates[0]), tags);
  }
}

function text(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const clean = String(value).trim();
  return clean === '' ? null : clean;
}

/** OSM XML of nodes (by id) and ways (given in id order), tags by key: what the importers read back. */
function osmXml(nodes: Map<number, OsmNode>, ways: Array<[number, { tags: OsmTags; refs: number[] }]>): Buffer {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<osm version="0.6" generator="location-api starter:build">'];
  const tagLines = (tags: OsmTags) => Object.keys(tags).sort(byCodeUnit).map((key) => `    <tag k="${escapeXml(key)}" v="${escapeXml(tags[key])}"/>`);
  for (const id of [...nodes.keys()].sort((a, b) => a - b)) {
    const node = nodes.get(id)!;
    const head = `  <node id="${id}" lat="${coordinate(node.lat)}" lon="${coordinate(node.lng)}"`;
    const tags = tagLines(node.tags);
    if (tags.length === 0) lines.push(`${head}/>`);
    else lines.push(`${head}>`, ...tags, '  </node>');
  }
  for (const [id, way] of ways) lines.push(`  <way id="${id}">`, ...way.refs.map((ref) => `    <nd ref="${ref}"/>`), ...tagLines(way.tags), '  </way>');
  lines.push('</osm>', '');
  return Buffer.from(lines.join('\n'), 'utf8');
}

/** Douglas–Peucker over a way's node refs (metres on a local equirectangular projection); nodes `pinned` always stay. */
function thin(refs: number[], nodes: Map<number, OsmNode>, pinned: (ref: number) => boolean): number[] {
  const points = refs.map((ref) => nodes.get(ref));
  if (points.some((point) => !point) || refs.length < 3) return refs;
  const cos = Math.cos((points[0]!.lat * Math.PI) / 180);
  const xy = points.map((point) => [point!.lng * 111_320 * cos, point!.lat * 110_574] as const);
  const keep = new Uint8Array(refs.length);
  refs.forEach((ref, i) => (keep[i] = i === 0 || i === refs.length - 1 || pinned(ref) ? 1 : 0));
  const stack: Array<[number, number]> = [];
  // Between consecutive kept points, the farthest one over the tolerance is kept, recursively.
  let last = 0;
  for (let i = 1; i < refs.length; i++) if (keep[i]) (stack.push([last, i]), (last = i));
  while (stack.length > 0) {
    const [a, b] = stack.pop()!;
    const [ax, ay] = xy[a];
    const [bx, by] = xy[b];
    const dx = bx - ax;
    const dy = by - ay;
    const length2 = dx * dx + dy * dy;
    let worst = -1;
    let worstD = BACKBONE_TOLERANCE_M;
    for (let i = a + 1; i < b; i++) {
      const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, ((xy[i][0] - ax) * dx + (xy[i][1] - ay) * dy) / length2));
      const d = Math.hypot(xy[i][0] - (ax + t * dx), xy[i][1] - (ay + t * dy));
      if (d > worstD) [worst, worstD] = [i, d];
    }
    if (worst < 0) continue;
    keep[worst] = 1;
    stack.push([a, worst], [worst, b]);
  }
  return refs.filter((_, i) => keep[i]);
}

/** OSM's own precision: 7 decimals. */
function coordinate(value: number): string {
  return String(Math.round(value * 1e7) / 1e7);
}

const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\n': '&#10;', '\r': '&#13;', '\t': '&#9;' };

function escapeXml(value: string): string {
  // Other C0 controls cannot appear in XML 1.0 at all, not even as references.
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '').replace(/[&<>"\n\r\t]/g, (char) => XML_ESCAPES[char]);
}

function roundGeometry(feature: unknown, decimals: number): unknown {
  const factor = 10 ** decimals;
  const round = (value: unknown): unknown => (typeof value === 'number' ? Math.round(value * factor) / factor : Array.isArray(value) ? value.map(round) : value);
  const record = feature as { geometry?: { coordinates?: unknown } };
  if (!record?.geometry || !('coordinates' in record.geometry)) return feature;
  return { ...record, geometry: { ...record.geometry, coordinates: round(record.geometry.coordinates) } };
}

function sortedCounts(counts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.keys(counts).sort(byCodeUnit).map((key) => [key, counts[key]]));
}
