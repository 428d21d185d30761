import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import {
  datasetGroup,
  type DatasetDeclaration,
  type DatasetImportOptions,
  type DatasetImportProgress,
  type DatasetImportResult,
  type DatasetStore,
} from '../../platform/src/index.js';
import { readManifest, STARTER_KINDS, StarterPackError, verifyPack, type PackDataset, type PackManifest, type StarterKind } from './public/pack.js';
import { BasemapAbortedError, basemapSources, buildBasemapInWorker, isOutdatedStarterBasemap, STARTER_BASEMAP, type BasemapBuild, type BasemapProgress } from './public/starter-basemap.js';

/**
 * On start, the starter pack's dataset of each kind that has no live dataset
 * (docs/adr/0017): boundaries first, so places get their region and district,
 * then the gazetteer, then the landmarks, through the same importers as
 * `npm run ops -- import:*`: the ones the contexts' manifests declare for
 * that kind (`datasets[].starter`). A live dataset is never replaced, so a restart
 * imports nothing and an operator's own import always wins. Each dataset is
 * switched in atomically by the reference store: a crash leaves the kinds done
 * so far live, and the next start imports the rest.
 */

export interface StarterLog {
  info(fields: Record<string, unknown>): void;
}

export interface StarterImportOptions {
  log: StarterLog;
  /** Every context's declared datasets: a pack's kind is imported by the declaration whose `starter.kind` it is. */
  datasets: readonly DatasetDeclaration[];
  /** Where the lock that keeps two processes from importing at once lives (the reference folder every instance shares). */
  lockDir: string;
  /** Aborts between progress reports of an import (shutdown during the first start); the version being written is dropped. */
  signal?: AbortSignal;
  /** Tests: each importer's progress. */
  onProgress?: (kind: StarterKind, progress: DatasetImportProgress) => void;
  /** Another process importing the starter into the same folder: how long its lock may go untouched before it counts as dead. */
  staleLockMs?: number;
  /** TILES_DIR: where the starter basemap (`starter.pmtiles`, docs/adr/0027) is built when absent; no basemap without it. */
  tilesDir?: string;
  /** Where the basemap's label glyphs are cached (DATA_DIR/glyphs, docs/adr/0037); the console serves them. */
  glyphsDir?: string;
  /** Tests: the basemap build's progress. */
  onBasemapProgress?: (progress: BasemapProgress) => void;
}

export interface StarterImportReport {
  imported: Array<{ kind: StarterKind; dataset: string; version: string; records: number; ms: number }>;
  /** Kinds of the pack left alone: a dataset of that kind is live, or no importer reads it yet. */
  skipped: Array<{ kind: StarterKind; reason: 'live' | 'no_importer' }>;
  /** The starter basemap: built now, already there (an operator's own `starter.pmtiles` too), or failed (the datasets stay imported). */
  basemap?: { outcome: 'built'; build: BasemapBuild } | { outcome: 'present' } | { outcome: 'failed'; error: string };
  ms: number;
}

export class StarterAbortedError extends Error {}

const LOCK = '.starter-import.lock';
/** Locks this process holds: its own pid in a lock file means stale only when the lock is not one of these. */
const heldHere = new Set<string>();
const HEARTBEAT_MS = 2000;
const STALE_LOCK_MS = 30_000;

/** The declaration that imports each kind, in the order the kinds must run (the pack format's order: boundaries first). */
function importers(datasets: readonly DatasetDeclaration[]): Map<StarterKind, DatasetDeclaration> {
  const byKind = new Map<StarterKind, DatasetDeclaration>();
  for (const kind of STARTER_KINDS) {
    const declaration = datasets.find((candidate) => candidate.starter?.kind === kind);
    if (declaration) byKind.set(kind, declaration);
  }
  return byKind;
}

/**
 * Which kinds have a live dataset: a declared single dataset with a live
 * version, or any live dataset of a declared group that the declaration
 * claims (a place set from OpenStreetMap is the landmarks, any other the
 * places; any `transit/*` feed is transit, an operator's own city too).
 */
export async function liveKinds(store: DatasetStore, datasets: readonly DatasetDeclaration[]): Promise<Map<StarterKind, string[]>> {
  const live = new Map<StarterKind, string[]>();
  for (const [kind, declaration] of importers(datasets)) {
    const group = datasetGroup(declaration);
    for (const dataset of group ? await store.liveDatasets(group) : [declaration.dataset]) {
      const version = await store.current(dataset);
      if (!version || !(declaration.starter?.claims?.(version) ?? true)) continue;
      live.set(kind, [...(live.get(kind) ?? []), dataset]);
    }
  }
  return live;
}

export async function importStarterData(store: DatasetStore, packDir: string, options: StarterImportOptions): Promise<StarterImportReport> {
  const started = Date.now();
  const manifest = await readManifest(packDir);
  const report: StarterImportReport = { imported: [], skipped: [], ms: 0 };
  const byKind = importers(options.datasets);
  const order = [...byKind.keys()];
  // The basemap reads the pack's files, not the datasets: built in its worker thread while the datasets import on this one.
  const basemap = options.tilesDir ? starterBasemap(packDir, manifest, options.tilesDir, options) : undefined;
  basemap?.catch(() => undefined); // awaited below; an import that throws first leaves it to finish on its own
  const wanted = async () => {
    const live = await liveKinds(store, options.datasets);
    return manifest.datasets.filter((dataset) => byKind.has(dataset.kind) && !live.has(dataset.kind));
  };
  if ((await wanted()).length > 0) {
    await withLock(options.lockDir, options, async () => {
      // Another process may have imported while this one waited for the lock: look again.
      const todo = (await wanted()).sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind));
      const problems = await verifyPack(packDir, manifest, todo.flatMap((dataset) => dataset.files));
      if (problems.length > 0) throw new StarterPackError(`starter pack ${packDir} does not match its manifest: ${problems.join('; ')}`);
      for (const dataset of todo) {
        const begun = Date.now();
        const result = await importDataset(store, packDir, dataset, byKind.get(dataset.kind)!, options);
        const entry = { kind: dataset.kind, dataset: result.version.dataset, version: result.version.version, records: result.version.manifest.records, ms: Date.now() - begun };
        report.imported.push(entry);
        options.log.info({ msg: 'starter dataset imported', pack: manifest.name, ...entry });
      }
    });
  }
  const imported = new Set(report.imported.map((entry) => entry.kind));
  for (const dataset of manifest.datasets) {
    if (!imported.has(dataset.kind)) report.skipped.push({ kind: dataset.kind, reason: byKind.has(dataset.kind) ? 'live' : 'no_importer' });
  }
  if (basemap) report.basemap = await basemap;
  report.ms = Date.now() - started;
  return report;
}

/**
 * The starter basemap, when TILES_DIR has no `starter.pmtiles`: built off the
 * event loop and renamed into place whole, so several instances building at
 * once each write a complete archive and the last rename wins. Progress is
 * logged once a second after the first second. A failure is reported, not
 * thrown: the datasets are imported and the API is useful without a basemap.
 */
async function starterBasemap(packDir: string, manifest: PackManifest, tilesDir: string, options: StarterImportOptions): Promise<NonNullable<StarterImportReport['basemap']>> {
  const target = path.join(tilesDir, `${STARTER_BASEMAP}.pmtiles`);
  // An older build of this service's own (no labels) is replaced; an operator's archive never.
  if (existsSync(target) && !(await isOutdatedStarterBasemap(target))) return { outcome: 'present' };
  await removeStaleTemporaries(tilesDir);
  const sources = basemapSources(packDir, manifest, options.glyphsDir);
  const files = [...sources.roads, ...sources.backbone, ...sources.boundaries, ...sources.geonames, ...sources.placeNodes].map((file) => path.relative(packDir, file));
  const started = Date.now();
  let logged = started;
  try {
    const problems = await verifyPack(packDir, manifest, files);
    if (problems.length > 0) throw new StarterPackError(`starter pack ${packDir} does not match its manifest: ${problems.join('; ')}`);
    const build = await buildBasemapInWorker(
      sources,
      target,
      (progress) => {
        options.onBasemapProgress?.(progress);
        const now = Date.now();
        if (now - logged < 1000) return;
        logged = now;
        options.log.info({ msg: 'starter basemap: building', ...progress, ms: now - started });
      },
      options.signal,
    );
    options.log.info({ msg: 'starter basemap built', pack: manifest.name, file: target, tiles: build.tiles, bytes: build.bytes, glyph_ranges: build.glyph_ranges, phases_ms: build.phases_ms, ms: build.ms });
    return { outcome: 'built', build };
  } catch (error) {
    if (error instanceof BasemapAbortedError) throw new StarterAbortedError('starter import aborted');
    const message = error instanceof Error ? error.message : String(error);
    options.log.info({ msg: 'starter basemap not built; the console shows the API overlays on a plain background', err: message });
    return { outcome: 'failed', error: message };
  }
}

function importDataset(store: DatasetStore, packDir: string, dataset: PackDataset, declaration: DatasetDeclaration, options: StarterImportOptions): Promise<DatasetImportResult> {
  const files = dataset.files.map((file) => path.join(packDir, file));
  if (declaration.cli.files !== 'many' && files.length !== 1) throw new StarterPackError(`the ${dataset.kind} dataset of a starter pack is one file, not ${files.length}`);
  const importOptions: DatasetImportOptions = {
    dataset: nameInGroup(dataset, declaration),
    attribution: dataset.attribution,
    onProgress: (progress) => {
      // Thrown inside the importer, which drops its unfinished version.
      if (options.signal?.aborted) throw new StarterAbortedError('starter import aborted');
      options.onProgress?.(dataset.kind, progress);
    },
  };
  return (declaration.starter?.import ?? declaration.import)(store, files, importOptions);
}

/** The pack's `places/geonames` is `--dataset geonames` of a `places/*` declaration; a single dataset takes no name; null is the importer's default. */
function nameInGroup(dataset: PackDataset, declaration: DatasetDeclaration): string | undefined {
  const group = datasetGroup(declaration);
  if (!group || dataset.dataset === null) return undefined;
  if (!dataset.dataset.startsWith(`${group}/`)) throw new StarterPackError(`the ${dataset.kind} dataset must be under ${group}/, not ${dataset.dataset}`);
  return dataset.dataset.slice(group.length + 1);
}

/** Temporary files of builds killed in their final write, an hour old or more (a build in progress writes its own only at the end). */
async function removeStaleTemporaries(tilesDir: string): Promise<void> {
  const names = await readdir(tilesDir).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(`.${STARTER_BASEMAP}.pmtiles.`) || !name.endsWith('.tmp')) continue;
    const file = path.join(tilesDir, name);
    const info = await stat(file).catch(() => null);
    if (info && Date.now() - info.mtimeMs > 3600_000) await rm(file, { force: true });
  }
}

/**
 * One process imports the starter at a time: API instances sharing a data
 * volume start together. The lock is a folder (mkdir is atomic) with its
 * owner inside, touched while held; a lock untouched for `staleLockMs`, or
 * held by a process of this host that is gone, is taken over.
 */
async function withLock<T>(root: string, options: StarterImportOptions, run: () => Promise<T>): Promise<T> {
  await mkdir(root, { recursive: true });
  const lock = path.join(root, LOCK);
  const staleMs = options.staleLockMs ?? STALE_LOCK_MS;
  let waitingSince = 0;
  for (;;) {
    if (options.signal?.aborted) throw new StarterAbortedError('starter import aborted');
    try {
      await mkdir(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (await isStale(lock, staleMs)) {
      await rm(lock, { recursive: true, force: true });
      continue;
    }
    if (waitingSince === 0) {
      waitingSince = Date.now();
      options.log.info({ msg: 'starter data: another process is importing it; waiting', lock });
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  heldHere.add(lock);
  await writeFile(path.join(lock, 'owner'), `${hostname()} ${process.pid}\n`);
  const heartbeat = setInterval(() => {
    const now = new Date();
    void utimes(lock, now, now).catch(() => undefined);
  }, HEARTBEAT_MS);
  heartbeat.unref();
  try {
    return await run();
  } finally {
    clearInterval(heartbeat);
    await rm(lock, { recursive: true, force: true });
    heldHere.delete(lock);
  }
}

async function isStale(lock: string, staleMs: number): Promise<boolean> {
  const info = await stat(lock).catch(() => null);
  if (!info) return false;
  if (Date.now() - info.mtimeMs > staleMs) return true;
  const owner = await readFile(path.join(lock, 'owner'), 'utf8').catch(() => null);
  if (!owner) return false;
  const [host, pidText] = owner.trim().split(' ');
  const pid = Number(pidText);
  // This process cannot hold it here (a container restarted under the same pid), and a pid of this host that is gone holds nothing.
  return host === hostname() && Number.isInteger(pid) && (pid === process.pid ? !heldHere.has(lock) : !isRunning(pid));
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
