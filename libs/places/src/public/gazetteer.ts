import type { Place } from '../domain/place.js';
import { PlaceGrid, type NearbyPlace } from '../domain/place-grid.js';
import { SearchIndex, type SearchQuery, type SearchResult } from '../domain/search-index.js';
import { DatasetNotLoadedError } from '../domain/errors.js';
import { LandmarkIndex } from '../landmarks/domain/landmark-index.js';
import { PolledDataset, type DatasetStore, type DatasetVersion } from '../../../platform/src/index.js';
import { BOUNDARIES_DATASET, loadAdminAreas, PLACES } from './importers.js';
import type { AdminAreas } from '../domain/admin-areas.js';
import { LANDMARK_RADIUS_M, LOCALITY_RADIUS_M } from '../../../addressing/src/index.js';
import { isPopulatedPlace, pointNames } from '../domain/point-names.js';
import { COVERED_COUNTRIES, outsideCoverage, type OutsideCoverage } from '../domain/coverage.js';

/** The boundaries are Ghana's (OCHA COD-AB), as every starter dataset: the country a point inside them is in (docs/adr/0011). */
export const COVERAGE = { code: 'GH', name: 'Ghana' } as const;


export interface LoadedDataset {
  dataset: string;
  version: string;
  records: number;
  imported_at: string;
  attribution: string[];
}

interface Snapshot {
  index: SearchIndex;
  /** The landmarks of the same places, built in the same load so both always answer from one version. */
  landmarks: LandmarkIndex;
  /** The same places by position (GET /v2/address/resolve). */
  grid: PlaceGrid;
  /** The settlements alone, by position: the locality of GET /v2/reverse. */
  settlements: PlaceGrid;
  /** The boundaries dataset's areas (region, district of a point), when one is imported. */
  admin: AdminAreas | null;
  /** Place id → the dataset version it was loaded from, for `last_seen_at`. */
  origin: Map<string, LoadedDataset>;
  datasets: LoadedDataset[];
  /** The boundaries dataset `admin` was read from. */
  boundaries: LoadedDataset | null;
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
export class Gazetteer extends PolledDataset {
  private snapshot: Snapshot | null = null;
  /** The versions that last failed to load: not retried (nor logged again) until a pointer moves. */
  private failedKey: string | null = null;

  constructor(
    private readonly store: DatasetStore,
    private readonly log: Log,
    pollMs = 2000,
  ) {
    super(pollMs);
  }

  get datasets(): LoadedDataset[] {
    return this.snapshot?.datasets ?? [];
  }

  search(query: SearchQuery): SearchResult {
    if (!this.snapshot) throw new DatasetNotLoadedError();
    return this.snapshot.index.search(query);
  }

  /** The landmark index of the live place sets (docs/adr/0013). */
  landmarks(): LandmarkIndex {
    if (!this.snapshot) throw new DatasetNotLoadedError();
    return this.snapshot.landmarks;
  }

  /** Places within `radiusM` (bounded by MAX_NEAR_RADIUS_M) of a point, nearest first, with the dataset version each came from. */
  near(lat: number, lng: number, radiusM: number, limit: number): Array<NearbyPlace & { dataset: LoadedDataset }> {
    const snapshot = this.snapshot;
    if (!snapshot) throw new DatasetNotLoadedError();
    return snapshot.grid.near(lat, lng, radiusM, limit).map((hit) => ({ ...hit, dataset: snapshot.origin.get(hit.place.id)! }));
  }

  /** Every live place in the rectangle (see PlaceGrid.forEachIn), with the datasets it was read from. */
  forEachIn(box: { north: number; south: number; east: number; west: number }, visit: (place: Place) => void): LoadedDataset[] {
    const snapshot = this.snapshot;
    if (!snapshot) throw new DatasetNotLoadedError();
    snapshot.grid.forEachIn(box, visit);
    return snapshot.datasets;
  }

  /**
   * Region, district, nearest settlement and nearest landmark of a point
   * (GET /v2/reverse's `address`), each with its dataset; null before any
   * place set is loaded.
   */
  namesAt(lat: number, lng: number) {
    const snapshot = this.snapshot;
    if (!snapshot) return null;
    const boundaries = snapshot.boundaries;
    const names = pointNames(
      {
        admin: snapshot.admin,
        boundaries: boundaries?.dataset ?? null,
        settlements: snapshot.settlements,
        landmarks: snapshot.landmarks,
        datasetOf: (id) => snapshot.origin.get(id)?.dataset ?? 'places',
        country: COVERAGE,
      },
      lat,
      lng,
      { localityM: LOCALITY_RADIUS_M, landmarkM: LANDMARK_RADIUS_M },
    );
    // The datasets the answer's parts came from, each once.
    const used = new Set([names.region?.dataset, names.district?.dataset, names.locality?.dataset, names.landmark?.dataset]);
    const datasets = [...snapshot.datasets, ...(boundaries ? [boundaries] : [])]
      .filter((dataset) => used.has(dataset.dataset))
      .map(({ dataset, version, imported_at, attribution }) => ({ dataset, version, imported_at, attribution }));
    return { ...names, datasets };
  }

  /** The countries the reference data covers (ISO 3166-1 alpha-2; issue 28, item 8). */
  readonly coverage: { countries: readonly string[] } = { countries: COVERED_COUNTRIES };

  /** The well-known place outside coverage a text names, when it names one ("Lagos", "Abidjan"): its results are not it. */
  outsideCoverage(text: string): OutsideCoverage | null {
    return outsideCoverage(text);
  }

  /** The loaded dataset version a place (of the last search or near answer) came from; null once that version is gone. */
  datasetOf(placeId: string): LoadedDataset | null {
    return this.snapshot?.origin.get(placeId) ?? null;
  }

  /** Loads the live versions when they differ from the loaded ones; true when it swapped the index. */
  protected async load(): Promise<boolean> {
    let key = '';
    try {
      const versions: DatasetVersion[] = [];
      for (const dataset of await this.store.liveDatasets(PLACES)) {
        const version = await this.store.current(dataset);
        if (version) versions.push(version);
      }
      const boundaries = await this.store.current(BOUNDARIES_DATASET);
      key = versions.map((version) => `${version.dataset}@${version.version}`).join(',') + (boundaries ? `;${boundaries.dataset}@${boundaries.version}` : '');
      if (key === (this.snapshot?.key ?? '') || key === this.failedKey) return false;
      if (versions.length === 0) {
        this.snapshot = null;
        return true;
      }
      const started = Date.now();
      const datasets = versions.map((version) => ({
        dataset: version.dataset,
        version: version.version,
        records: version.manifest.records,
        imported_at: version.manifest.imported_at,
        attribution: version.manifest.attribution,
      }));
      const places: Place[] = [];
      const origin = new Map<string, LoadedDataset>();
      for (const [i, version] of versions.entries()) {
        for await (const place of this.store.records<Place>(version)) {
          places.push(place);
          origin.set(place.id, datasets[i]);
        }
      }
      const admin = boundaries ? await loadAdminAreas(this.store) : null;
      const boundariesLoaded: LoadedDataset | null = boundaries
        ? { dataset: boundaries.dataset, version: boundaries.version, records: boundaries.manifest.records, imported_at: boundaries.manifest.imported_at, attribution: boundaries.manifest.attribution }
        : null;
      const index = new SearchIndex(places);
      const landmarks = new LandmarkIndex(places);
      if (landmarks.collisions.length > 0) this.log.error({ msg: 'landmark keys shared by two source objects; neither is served', keys: landmarks.collisions.slice(0, 20) });
      const settlements = new PlaceGrid(places.filter(isPopulatedPlace));
      this.snapshot = { index, landmarks, grid: new PlaceGrid(places), settlements, admin, origin, datasets, boundaries: boundariesLoaded, key };
      this.failedKey = null;
      this.log.info({ msg: 'places loaded', datasets: datasets.map((d) => `${d.dataset}@${d.version}`), places: index.size, landmarks: landmarks.size, ms: Date.now() - started });
      return true;
    } catch (error) {
      this.failedKey = key || null;
      this.log.error({ msg: 'places dataset not loaded; the previous one stays', err: error instanceof Error ? error.message : String(error) });
      return false;
    }
  }
}
