import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The starter pack (docs/adr/0017): a folder of compressed, attributed
 * datasets the service imports on first start, built by
 * `npm run ops -- starter:build` from a recipe (`recipe.json`: which source
 * file plays which role, with its origin and licence).
 *
 *   recipe.json      the input of the build: sources, roles, licences
 *   manifest.json    what the build wrote: datasets by kind, every file's checksums, the sources' checksums
 *   LICENCES.md      each source and its licence, the attribution to show
 *   boundaries/…     the files of each kind
 */

/** What a dataset of the pack is, as the service counts "a dataset of that kind is live". */
export type StarterKind = 'boundaries' | 'places' | 'landmarks' | 'roads' | 'roads-backbone' | 'transit';
export const STARTER_KINDS: readonly StarterKind[] = ['boundaries', 'places', 'landmarks', 'roads', 'roads-backbone', 'transit'];

/** How the build reads a source file, and so which kind it feeds. */
export type SourceRole =
  /** GeoJSON admin boundaries (OCHA COD `ADM1_*`/`ADM2_*`, or `name` + `admin_level`). */
  | 'boundaries'
  /** A GeoNames dump (19 tab-separated columns). */
  | 'geonames'
  /** OSM nodes in SQLite, one tag per node (a `NODE` table: ID, LAT, LON, NAME, NAME_EN, NAME_DE, TAG, VALUE, POPULATION, ELEVATION). */
  | 'landmarks-osm-sqlite'
  /** OSM points as GeoJSON from a HOT export (`osm_id` and tag columns, shapefile-shortened names). */
  | 'landmarks-osm-geojson'
  /** OSM XML or PBF: its named nodes. */
  | 'landmarks-osm'
  /** OSM XML or PBF: its `highway` ways and their nodes. */
  | 'roads-osm'
  /** OSM XML or PBF of a national road backbone (docs/adr/0035): its routable `highway` ways with the tags routing reads, and their nodes. */
  | 'roads-backbone-osm'
  /** A GTFS feed (zip), copied as it is. */
  | 'gtfs';

export const ROLE_KINDS: Record<SourceRole, StarterKind> = {
  boundaries: 'boundaries',
  geonames: 'places',
  'landmarks-osm-sqlite': 'landmarks',
  'landmarks-osm-geojson': 'landmarks',
  'landmarks-osm': 'landmarks',
  'roads-osm': 'roads',
  'roads-backbone-osm': 'roads-backbone',
  gtfs: 'transit',
};

export interface RecipeSource {
  role: SourceRole;
  /** Relative to the sources folder given to the build. */
  file: string;
  /** What it holds, for LICENCES.md. */
  what: string;
  /** Where it comes from. */
  origin: string;
  licence: string;
  licence_url: string;
  /** The line to show wherever data from it is shown or served. */
  attribution: string;
}

export interface Recipe {
  /** The pack's folder name: `ghana`. */
  name: string;
  title: string;
  /** One sentence: what the pack covers. */
  covers: string;
  sources: RecipeSource[];
}

export interface PackFile {
  bytes: number;
  sha256: string;
  /** Of the decompressed content (equal to sha256 for an uncompressed file): compares builds made with another zlib. */
  content_sha256: string;
}

export interface PackDataset {
  kind: StarterKind;
  /** The reference dataset it becomes (`boundaries`, `places/geonames`, `places/osm`); null while no importer reads its kind. */
  dataset: string | null;
  files: string[];
  attribution: string[];
  counts: Record<string, number>;
}

export interface PackManifest {
  format: 1;
  name: string;
  title: string;
  covers: string;
  builder: { command: string; version: number; zlib: string };
  datasets: PackDataset[];
  /** Every file of the pack but the manifest, by path relative to the pack. */
  files: Record<string, PackFile>;
  sources: Array<{ role: SourceRole; file: string; bytes: number; sha256: string }>;
}

/** The Ghana pack shipped in the repository, and where `starter:build` finds its sources by default. */
export const DEFAULT_PACK = 'starter/ghana';
export const DEFAULT_SOURCES = '../shared/data';

export class StarterPackError extends Error {}

/**
 * The folder holding `package.json`, above this file both in the sources
 * (jest) and in `dist/` (npm start): the starter pack is found from there,
 * whatever the working directory.
 */
export function appRoot(from = import.meta.dirname): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new StarterPackError(`no package.json above ${from}`);
  }
}

export function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

export async function readManifest(packDir: string): Promise<PackManifest> {
  let manifest: PackManifest;
  try {
    manifest = JSON.parse(await readFile(path.join(packDir, 'manifest.json'), 'utf8')) as PackManifest;
  } catch (error) {
    throw new StarterPackError(`no readable starter pack manifest in ${packDir}: ${(error as Error).message}`);
  }
  if (manifest.format !== 1 || !Array.isArray(manifest.datasets) || typeof manifest.files !== 'object') throw new StarterPackError(`${packDir}/manifest.json is not a format-1 starter manifest`);
  return manifest;
}

/** Checks the files of the pack against its manifest; answers what is wrong (nothing: an empty list). */
export async function verifyPack(packDir: string, manifest: PackManifest, only?: string[]): Promise<string[]> {
  const problems: string[] = [];
  for (const [file, expected] of Object.entries(manifest.files)) {
    if (only && !only.includes(file)) continue;
    const data = await readFile(path.join(packDir, file)).catch(() => null);
    if (!data) problems.push(`${file}: missing`);
    else if (data.length !== expected.bytes || sha256(data) !== expected.sha256) problems.push(`${file}: checksum mismatch`);
  }
  return problems;
}

/** A recipe as read from JSON: every field present and of its type, roles known. */
export function parseRecipe(text: string, origin: string): Recipe {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new StarterPackError(`${origin} is not JSON: ${(error as Error).message}`);
  }
  const recipe = value as Recipe;
  const isText = (field: unknown) => typeof field === 'string' && field.trim() !== '';
  if (!recipe || !isText(recipe.name) || !/^[a-z0-9][a-z0-9_-]*$/.test(recipe.name) || !isText(recipe.title) || !isText(recipe.covers) || !Array.isArray(recipe.sources)) {
    throw new StarterPackError(`${origin}: expected {name (a-z, 0-9, _ and -), title, covers, sources: [...]}`);
  }
  for (const [i, source] of recipe.sources.entries()) {
    if (!(source?.role in ROLE_KINDS)) throw new StarterPackError(`${origin}: sources[${i}].role must be one of ${Object.keys(ROLE_KINDS).join(', ')}`);
    for (const field of ['file', 'what', 'origin', 'licence', 'licence_url', 'attribution'] as const) {
      if (!isText(source[field])) throw new StarterPackError(`${origin}: sources[${i}].${field} is missing`);
    }
  }
  if (recipe.sources.length === 0) throw new StarterPackError(`${origin}: no source`);
  return recipe;
}
