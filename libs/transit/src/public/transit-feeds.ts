import { PolledDataset, type DatasetStore, type DatasetVersion } from '../../../platform/src/index.js';
import type { Point } from '../domain/geo.js';
import type { TransitNetwork } from '../domain/network.js';
import { TransitNotLoadedError } from '../domain/errors.js';
import { compileNetwork } from '../feed/compile-network.js';
import { TRANSIT_DATASET_GROUP } from './import-gtfs.js';

export interface LoadedFeed {
  dataset: string;
  version: string;
  imported_at: string;
  attribution: string[];
  /** Where the records are: what a planner thread compiles its own copy of the network from (planner-pool.ts). */
  source: DatasetVersion;
  network: TransitNetwork;
}

interface Log {
  info(fields: Record<string, unknown>): void;
  error(fields: Record<string, unknown>): void;
}

/** A place counts as inside a feed's area when one of its stops is this close. */
const COVERAGE_M = 5000;

/**
 * The transit networks the endpoints answer from: every live transit dataset,
 * compiled in memory at start. As the gazetteer does (docs/adr/0011), it polls
 * the `current` pointers and, when one moved, compiles the new version beside
 * the old and swaps it in; a version that fails its checksum or does not
 * compile is refused and the previous network keeps serving.
 */
export class TransitFeeds extends PolledDataset {
  private feeds: LoadedFeed[] = [];
  private key = '';
  private failedKey: string | null = null;
  private readonly listeners: Array<(feeds: readonly LoadedFeed[]) => void> = [];

  constructor(
    private readonly store: DatasetStore,
    private readonly log: Log,
    pollMs = 2000,
  ) {
    super(pollMs);
  }

  get loaded(): readonly LoadedFeed[] {
    return this.feeds;
  }

  /** Called with the new set of live feeds after each swap (the planner threads follow it). */
  onSwap(listener: (feeds: readonly LoadedFeed[]) => void): void {
    this.listeners.push(listener);
  }

  /** The feed whose stops are nearest the point (the one to route in); TransitNotLoadedError before any import. */
  feedFor(point: Point): LoadedFeed {
    if (this.feeds.length === 0) throw new TransitNotLoadedError();
    if (this.feeds.length === 1) return this.feeds[0];
    let best = this.feeds[0];
    let bestDistance = Infinity;
    for (const feed of this.feeds) {
      const nearest = feed.network.grid.within(point.lat, point.lng, COVERAGE_M)[0];
      if (nearest && nearest.distanceM < bestDistance) {
        best = feed;
        bestDistance = nearest.distanceM;
      }
    }
    return best;
  }

  protected async load(): Promise<boolean> {
    let key = '';
    try {
      const versions: DatasetVersion[] = [];
      for (const dataset of await this.store.liveDatasets(TRANSIT_DATASET_GROUP)) {
        const version = await this.store.current(dataset);
        if (version) versions.push(version);
      }
      key = versions.map((version) => `${version.dataset}@${version.version}`).join(',');
      if (key === this.key || key === this.failedKey) return false;
      const started = Date.now();
      const feeds: LoadedFeed[] = [];
      for (const version of versions) {
        const reused = this.feeds.find((feed) => feed.dataset === version.dataset && feed.version === version.version);
        if (reused) {
          feeds.push(reused);
          continue;
        }
        feeds.push({
          dataset: version.dataset,
          version: version.version,
          imported_at: version.manifest.imported_at,
          attribution: version.manifest.attribution,
          source: version,
          network: await compileNetwork(this.store, version),
        });
      }
      this.feeds = feeds;
      this.key = key;
      this.failedKey = null;
      for (const listener of this.listeners) listener(feeds);
      if (feeds.length > 0) {
        this.log.info({
          msg: 'transit feeds loaded',
          datasets: feeds.map((feed) => `${feed.dataset}@${feed.version}`),
          stops: feeds.reduce((sum, feed) => sum + feed.network.stops.length, 0),
          patterns: feeds.reduce((sum, feed) => sum + feed.network.patterns.length, 0),
          ms: Date.now() - started,
        });
      }
      return true;
    } catch (error) {
      this.failedKey = key || null;
      this.log.error({ msg: 'transit dataset not loaded; the previous one stays', err: error instanceof Error ? error.message : String(error) });
      return false;
    }
  }
}
