import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { PolledDataset, type DatasetStore, type DatasetVersion } from '../../../platform/src/index.js';
import { GraphFileError, readGraphFile } from '../engine/graph-file.js';
import { LoadedNetwork } from '../engine/loaded-network.js';
import { NO_ACCESS } from '../engine/road-graph.js';
import { prepareDataset, type LayerVersion } from '../engine/prepare-dataset.js';
import { BACKBONE_DATASET, EXTRACT_GROUP, ROAD_DATASET } from './import-roads.js';

interface Log {
  info(fields: Record<string, unknown>): void;
  error(fields: Record<string, unknown>): void;
}

/** One dataset of the layered network (docs/adr/0035), in layer order: the index WayInfo.layer names. */
export interface RoadLayerInfo {
  dataset: string;
  version: string;
  imported_at: string;
  attribution: string[];
  role: 'detailed' | 'backbone';
}

export interface RoadNetworkInfo {
  /** The first layer's dataset and version (the network's as a whole is `key`). */
  dataset: string;
  version: string;
  imported_at: string;
  attribution: string[];
  /** Names the combination of layer versions: the graph file's name. */
  key: string;
  layers: RoadLayerInfo[];
  nodes: number;
  edges: number;
}

/**
 * The live road datasets in layer order: the detailed ones (`roads`, then the
 * operator's `road-extracts/*` by name), then the national backbone
 * (`roads-backbone`). Its key names the graph file: a lone `roads` keeps its
 * version as the name (graph files of earlier releases stay valid), a
 * combination a hash of every dataset's version.
 */
export async function liveRoadLayers(store: DatasetStore): Promise<{ key: string; layers: LayerVersion[] } | null> {
  const layers: LayerVersion[] = [];
  const detailed = [ROAD_DATASET, ...(await store.liveDatasets(EXTRACT_GROUP).catch(() => [] as string[])).sort()];
  for (const dataset of detailed) {
    const version = await store.current(dataset);
    if (version) layers.push({ version, role: 'detailed' });
  }
  const backbone = await store.current(BACKBONE_DATASET);
  if (backbone) layers.push({ version: backbone, role: 'backbone' });
  if (layers.length === 0) return null;
  if (layers.length === 1 && layers[0].version.dataset === ROAD_DATASET) return { key: layers[0].version.version, layers };
  const hash = createHash('sha256');
  for (const layer of layers) hash.update(`${layer.version.dataset}@${layer.version.version};`);
  return { key: `layers-${hash.digest('hex').slice(0, 16)}`, layers };
}

/** Cheap check of what changed: the current pointers of every layer (no manifest read). */
async function layerPointers(store: DatasetStore): Promise<string> {
  const names = [ROAD_DATASET, ...(await store.liveDatasets(EXTRACT_GROUP).catch(() => [] as string[])).sort(), BACKBONE_DATASET];
  const parts: string[] = [];
  for (const name of names) parts.push(`${name}@${(await store.currentVersion(name)) ?? ''}`);
  return parts.join(';');
}

/**
 * The live road network: the `roads` dataset's current version, prepared
 * into a graph file under `DATA_DIR/routing/graphs/<version>.bin` (once per
 * version: a restart, or a second instance on the same volume, reads the file
 * instead of preparing again) and loaded. Preparation runs in a worker thread.
 * Like the gazetteer, it polls the dataset pointer and swaps a new version in
 * when one is imported; routes in flight finish on the old one.
 */
export class RoadNetwork extends PolledDataset {
  private loaded: LoadedNetwork | null = null;
  private info_: RoadNetworkInfo | null = null;
  private failedVersion: string | null = null;
  private loadedPointers: string | null = null;

  constructor(
    private readonly store: DatasetStore,
    private readonly graphsDir: string,
    private readonly log: Log,
    pollMs = 2000,
  ) {
    super(pollMs);
  }

  override stop(): void {
    super.stop();
    this.loaded?.metrics.stop();
  }

  current(): LoadedNetwork | null {
    return this.loaded;
  }

  get info(): RoadNetworkInfo | null {
    return this.info_;
  }

  /**
   * The nearest road with a name or a ref within `radiusM` (GET /v2/reverse's
   * `address.road`; docs/adr/0014): the snapping index, with every edge of an
   * unnamed way closed, so the answer is the nearest *named* road, not the
   * nearest road. The mask is built once per loaded version.
   */
  nearestNamedRoad(lat: number, lng: number, radiusM: number) {
    const loaded = this.loaded;
    const info = this.info_;
    if (!loaded || !info) return null;
    let mask = namedMasks.get(loaded);
    if (!mask) namedMasks.set(loaded, (mask = namedEdgeMask(loaded)));
    const snap = loaded.index.nearest(lat, lng, radiusM, mask);
    if (!snap) return null;
    const way = loaded.graph.ways[loaded.graph.edgeWay[snap.edge]];
    return {
      name: (way.name ?? way.ref)!,
      ref: way.ref,
      dataset: info.dataset,
      distance_m: Math.round(snap.distanceM),
      version: { dataset: info.dataset, version: info.version, imported_at: info.imported_at, attribution: info.attribution },
    };
  }

  /** Whether a road dataset is live (its graph may still be preparing). */
  async datasetLive(): Promise<boolean> {
    return (await liveRoadLayers(this.store)) !== null;
  }

  protected async load(): Promise<boolean> {
    let versionName: string | null = null;
    try {
      const pointers = await layerPointers(this.store);
      if (pointers === this.loadedPointers || pointers === this.failedVersion) return false;
      versionName = pointers;
      const live = await liveRoadLayers(this.store);
      if (!live) {
        this.loaded = null;
        this.info_ = null;
        this.loadedPointers = pointers;
        return true;
      }
      const version = { version: live.key };
      const started = Date.now();
      const file = path.join(this.graphsDir, `${version.version}.bin`);
      let prepared = false;
      const prepare = async () => {
        const stats = await prepareInWorker(live.layers, file, live.key);
        prepared = true;
        this.log.info({ msg: 'road graph prepared', version: version.version, layers: live.layers.map((layer) => `${layer.version.dataset}@${layer.version.version}`), ...stats });
      };
      if (!existsSync(file)) await prepare();
      let graph;
      try {
        graph = await readGraphFile(file);
      } catch (error) {
        // A file of an older format, or damaged: prepared again once, not trusted.
        if (prepared || !(error instanceof GraphFileError)) throw error;
        this.log.error({ msg: 'road graph file unreadable; preparing it again', version: version.version, err: error.message });
        await rm(file, { force: true });
        await prepare();
        graph = await readGraphFile(file);
      }
      const previous = this.loaded;
      this.loaded = new LoadedNetwork(graph, version.version);
      // Its traffic metrics' worker thread goes with it (routes in flight keep the hierarchies they hold).
      previous?.metrics.stop();
      const layers: RoadLayerInfo[] = live.layers.map((layer) => ({
        dataset: layer.version.dataset,
        version: layer.version.version,
        imported_at: layer.version.manifest.imported_at,
        attribution: layer.version.manifest.attribution,
        role: layer.role,
      }));
      this.info_ = {
        dataset: layers[0].dataset,
        version: layers[0].version,
        imported_at: layers[0].imported_at,
        attribution: [...new Set(layers.flatMap((layer) => layer.attribution))],
        key: live.key,
        layers,
        nodes: graph.graph.nodeCount,
        edges: graph.graph.edgeCount,
      };
      this.loadedPointers = pointers;
      this.failedVersion = null;
      this.log.info({ msg: 'road network loaded', version: version.version, prepared, nodes: graph.graph.nodeCount, edges: graph.graph.edgeCount, ms: Date.now() - started });
      await this.prune(version.version);
      return true;
    } catch (error) {
      this.failedVersion = versionName;
      this.log.error({ msg: 'road network not loaded; the previous one stays', version: versionName, err: error instanceof Error ? error.message : String(error) });
      return false;
    }
  }

  /** Graph files of versions the dataset no longer keeps (it keeps two). */
  private async prune(current: string): Promise<void> {
    const files = await readdir(this.graphsDir).catch(() => [] as string[]);
    const graphs = files.filter((name) => /^(v\d{8}T\d{9}Z-[0-9a-f]{6}|layers-[0-9a-f]{16})\.bin$/.test(name));
    const modified = new Map<string, number>();
    for (const name of graphs) modified.set(name, (await stat(path.join(this.graphsDir, name)).catch(() => ({ mtimeMs: 0 }))).mtimeMs);
    graphs.sort((a, b) => modified.get(a)! - modified.get(b)! || (a < b ? -1 : 1));
    // The current graph and the one before it (a rollback of one dataset finds its graph still there).
    const keep = new Set([`${current}.bin`, ...graphs.filter((name) => name !== `${current}.bin`).slice(-1)]);
    for (const name of graphs) if (!keep.has(name)) await rm(path.join(this.graphsDir, name), { force: true });
    for (const name of files) {
      if (!name.endsWith('.tmp')) continue;
      const age = Date.now() - (await stat(path.join(this.graphsDir, name)).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs;
      if (age > 3600_000) await rm(path.join(this.graphsDir, name), { force: true });
    }
  }
}

/** Per loaded network, its edges open (1) where the way has a name or ref, closed (NO_ACCESS) where not, in both directions. */
const namedMasks = new WeakMap<LoadedNetwork, Int32Array>();

function namedEdgeMask(loaded: LoadedNetwork): Int32Array {
  const { graph } = loaded;
  const mask = new Int32Array(2 * graph.edgeCount);
  for (let edge = 0; edge < graph.edgeCount; edge++) {
    const way = graph.ways[graph.edgeWay[edge]];
    const open = way.name || way.ref ? 1 : NO_ACCESS;
    mask[2 * edge] = open;
    mask[2 * edge + 1] = open;
  }
  return mask;
}

/**
 * Preparation off the event loop: a worker thread running the compiled
 * `prepare.worker.js`. Tests run the TypeScript sources, which a worker
 * cannot load without a loader; there it runs in-process.
 */
export function prepareInWorker(layers: LayerVersion[], outFile: string, key: string): Promise<Record<string, number>> {
  const self = import.meta.url;
  if (self.endsWith('.ts')) return prepareDataset(layers, outFile, key);
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('../engine/prepare.worker.js', self), { workerData: { layers, outFile, key } });
    worker.once('message', (message: { ok: boolean; stats?: Record<string, number>; error?: string }) => {
      if (message.ok) resolve(message.stats ?? {});
      else reject(new Error(message.error));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`road graph preparation exited with ${code}`));
    });
  });
}

/**
 * `npm run ops -- import:roads` prepares the new version's graph right away
 * (in this process, with progress), so a running service finds the file and
 * swaps the network in without preparing it itself.
 */
export async function prepareRoadGraph(graphsDir: string, store: DatasetStore, onProgress?: (phase: string, done: number, total: number) => void): Promise<Record<string, number>> {
  const live = await liveRoadLayers(store);
  if (!live) return {};
  const file = path.join(graphsDir, `${live.key}.bin`);
  if (existsSync(file)) return {};
  return prepareDataset(live.layers, file, live.key, onProgress);
}
