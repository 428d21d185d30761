/**
 * Reference data (docs/adr/0011): third-party datasets (places, boundaries,
 * roads, transit feeds) that are replaced as a whole by the next import, not
 * event-sourced. A dataset is a sequence of immutable versions, each a list of
 * JSON records with a manifest; exactly one version is live, and an import
 * makes its new version live in one atomic switch only once it is complete and
 * durable. A crash at any point leaves the previous version live.
 *
 * Contexts inject this port (`@Inject(DATASET_STORE)`); the file adapter
 * (`file/file-dataset-store.ts`) is the one implementation and
 * `dataset-store.contract.ts` the suite every adapter passes.
 */

/** `boundaries`, `places/geonames`, `transit/accra`: one or two lower-case path segments (a group and a name). */
export const DATASET_NAME = /^[a-z0-9][a-z0-9_-]{0,63}(\/[a-z0-9][a-z0-9_-]{0,63})?$/;

export interface DatasetManifest {
  format: 1;
  dataset: string;
  version: string;
  records: number;
  sha256: string;
  imported_at: string;
  sources: string[];
  attribution: string[];
  /** Importer-specific figures (skipped rows, places by kind…). */
  stats: Record<string, number>;
}

export interface DatasetVersion {
  dataset: string;
  /** `v<UTC time>-<random>`: sorts by import time. */
  version: string;
  /**
   * Where the version's files are (the records, the manifest and any
   * attachment): what a worker thread, which has no container, reads the
   * records from, and what the operator is shown.
   */
  directory: string;
  manifest: DatasetManifest;
}

export interface DatasetListing {
  dataset: string;
  version: string;
  current: boolean;
  /** Null when the version's manifest cannot be read (an interrupted or damaged version). */
  manifest: DatasetManifest | null;
}

/** The records of a version do not match its manifest (count or checksum): the version is refused. */
export class DatasetCorruptError extends Error {}

export interface DatasetWriter {
  readonly dataset: string;
  /** Records added so far. */
  readonly records: number;
  /** Buffers one record; `flushIfFull` (or `write`) moves the buffer to storage. */
  add(record: unknown): void;
  write(record: unknown): Promise<void>;
  flushIfFull(): Promise<void>;
  /** A file kept beside the records of this version (an import report), written durably with it. */
  attach(name: string, content: string): Promise<void>;
  /**
   * Makes the version durable and then live. `beforeSwitch` runs between the
   * two (tests use it to fail right there: the previous version must stay live).
   */
  commit(details: { sources: string[]; attribution: string[]; stats: Record<string, number> }, beforeSwitch?: () => Promise<void>): Promise<DatasetVersion>;
  /** Drops the unfinished version (a failed import). */
  abort(): Promise<void>;
}

export interface DatasetStore {
  /** Starts a new version of `dataset`; nothing is visible until `commit`. An invalid name is refused. */
  begin(dataset: string): Promise<DatasetWriter>;
  /** The live version of `dataset`, or null before its first complete import. */
  current(dataset: string): Promise<DatasetVersion | null>;
  /** Only which version is live (cheap enough to poll every 2 s), or null. */
  currentVersion(dataset: string): Promise<string | null>;
  /** Every dataset of a group (`places` → `places/geonames`, `places/osm-accra`) that has a live version, sorted by name. */
  liveDatasets(group: string): Promise<string[]>;
  /** Every version kept of every dataset, for the operator's listing. */
  list(): Promise<DatasetListing[]>;
  /** The records of a version, streamed; the count and checksum are verified at the end (DatasetCorruptError). */
  records<T>(version: DatasetVersion): AsyncGenerator<T>;
}

export const DATASET_STORE = Symbol('DatasetStore');
