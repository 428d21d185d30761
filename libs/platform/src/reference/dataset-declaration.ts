import type { Config } from '../config/config.js';
import type { DatasetStore, DatasetVersion } from './dataset-store.port.js';

/**
 * How a context declares the reference data it keeps (its manifest's
 * `datasets`), so the operator CLI (`npm run ops -- import:*`) and the starter
 * pack's first start (docs/adr/0017) find every importer without a central
 * list (README, "A context that keeps reference data").
 */

export interface DatasetImportProgress {
  /** What is being read: `reading`, `pass 1/2`, `places/osm`… */
  phase: string;
  done: number;
  total: number;
  records: number;
}

export interface DatasetImportOptions {
  /** The name inside the declared group (`--dataset NAME`: `places/NAME`); default: the importer's own. */
  dataset?: string;
  onProgress?: (progress: DatasetImportProgress) => void;
  /** Tests: runs after the new version is durable and before it goes live. */
  beforeSwitch?: () => Promise<void>;
  /** What the source's licence requires, when the caller knows it (a starter pack's recipe); default: what the importer knows of its format. */
  attribution?: string[];
}

export interface DatasetImportResult {
  version: DatasetVersion;
  stats: Record<string, number>;
}

/** Reads source files into a new version of a dataset and makes it live; refuses (throws) rather than replacing good data with none. */
export type DatasetImporter = (store: DatasetStore, files: string[], options: DatasetImportOptions) => Promise<DatasetImportResult>;

/** What the operator's command adds around an import: the configuration, and a line printer for what it reports beyond the figures. */
export interface DatasetCliOptions extends DatasetImportOptions {
  config: Config;
  print(line: string): void;
}

/** An import refused for its input (nothing found, a wrong file): the operator sees the message, the live version stays. */
export class DatasetImportError extends Error {}

export interface DatasetDeclaration {
  /**
   * What the context keeps: one dataset (`roads`, `boundaries`) or a group of
   * them (`places/*`, one dataset per `--dataset NAME`, side by side).
   */
  dataset: string;
  import: DatasetImporter;
  /** `npm run ops -- <command> FILE`: the command, and its usage after the command name (the file argument, options, a short description). */
  cli: {
    command: string;
    usage: string;
    /** `many`: FILE … and no `--dataset`; default one FILE and `--dataset NAME`. */
    files?: 'one' | 'many';
    /** The command's own steps around the import (a report printed, a graph prepared); default: the import alone. */
    run?: (store: DatasetStore, files: string[], options: DatasetCliOptions) => Promise<DatasetImportResult>;
  };
  /** The kind of a starter pack dataset this importer reads (docs/adr/0017); absent: starter packs have none. */
  starter?: {
    kind: string;
    /** Which live versions of the declared group count as this kind (several kinds share `places/*`); default: all. */
    claims?(version: DatasetVersion): boolean;
    /** The first start's own call (e.g. boundaries without rewriting place sets it did not import); default: `import`. */
    import?: DatasetImporter;
    /** Nest token of what serves the dataset (a PolledDataset): reloaded after the first start imported it. */
    servedBy?: unknown;
  };
}

/** The group of a declared dataset (`places` for `places/*`), or null for a single dataset. */
export function datasetGroup(declaration: Pick<DatasetDeclaration, 'dataset'>): string | null {
  return declaration.dataset.endsWith('/*') ? declaration.dataset.slice(0, -2) : null;
}
