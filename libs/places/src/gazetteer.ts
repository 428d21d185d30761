import type { Place } from './domain/place.js';
import { SearchIndex, type SearchQuery, type SearchResult } from './domain/search-index.js';
import { DatasetNotLoadedError } from './errors.js';
import type { DatasetVersion, ReferenceStore } from './reference/reference-store.js';

export interface LoadedDataset {
  dataset: string;
  version: string;
  records: number;
  imported_at: string;
  attribution: string[];
}

interface Snapshot {
  index: SearchIndex;
  datasets: LoadedDataset[];
  /** dataset → version, to tell whether the pointers moved. */
  key: string;
}

interface Log {
  info(fields: Record<string, unknown>): void;
  error(fields: Record<string, unknown>): void;
}

/**
 * The places search answers from: every live place set (`places/*`) loaded
 * into one in-memory index at start. A running service picks up a new import
 * without restart: it polls the `current` pointers (a few tiny file reads) and,
 * when one moved, builds the new index beside the old and swaps it in; a
 * search in between answers from the old one. A version that fails its
 * checksum is refused and the previous index stays.
 */
export class Gazetteer {
  private snapshot: Snapshot | null = null;
  private timer: NodeJS.Timeout | null = null;
  private reloading: Promise<boolean> | null = null;
  /** The versions that last failed to load: not retried (nor logged again) until a pointer moves. */
  private failedKey: string | null = null;

  constructor(
    private readonly store: ReferenceStore,
    private readonly log: Log,
    private readonly pollMs = 2000,
  ) {}

  async start(): Promise<void> {
    await this.reload();
    if (this.pollMs > 0) {
      this.timer = setInterval(() => void this.reload(), this.pollMs);
      this.timer.unref();
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  get datasets(): LoadedDataset[] {
    return this.snapshot?.datasets ?? [];
  }

  search(query: SearchQuery): SearchResult {
    if (!this.snapshot) throw new DatasetNotLoadedError();
    return this.snapshot.index.search(query);
  }

  /** Loads the live versions when they differ from the loaded ones; true when it swapped the index. */
  reload(): Promise<boolean> {
    this.reloading ??= this.load().finally(() => {
      this.reloading = null;
    });
    return this.reloading;
  }

  private async load(): Promise<boolean> {
    let key = '';
    try {
      const versions: DatasetVersion[] = [];
      for (const dataset of await this.store.placeDatasets()) {
        const version = await this.store.current(dataset);
        if (version) versions.push(version);
      }
      key = versions.map((version) => `${version.dataset}@${version.version}`).join(',');
      if (key === (this.snapshot?.key ?? '') || key === this.failedKey) return false;
      if (versions.length === 0) {
        this.snapshot = null;
        return true;
      }
      const started = Date.now();
      const places: Place[] = [];
      for (const version of versions) for await (const place of this.store.records<Place>(version)) places.push(place);
      const index = new SearchIndex(places);
      const datasets = versions.map((version) => ({
        dataset: version.dataset,
        version: version.version,
        records: version.manifest.records,
        imported_at: version.manifest.imported_at,
        attribution: version.manifest.attribution,
      }));
      this.snapshot = { index, datasets, key };
      this.failedKey = null;
      this.log.info({ msg: 'places loaded', datasets: datasets.map((d) => `${d.dataset}@${d.version}`), places: index.size, ms: Date.now() - started });
      return true;
    } catch (error) {
      this.failedKey = key || null;
      this.log.error({ msg: 'places dataset not loaded; the previous one stays', err: error instanceof Error ? error.message : String(error) });
      return false;
    }
  }
}
