import path from 'node:path';
import { EmbeddedReadStore } from './embedded/embedded-read-store.js';
import { MongoReadStore } from './mongodb/mongodb-read-store.js';
import type { ReadStore } from './read-store.port.js';

export * from './read-store.port.js';
export * from './errors.js';
export { DEFAULT_LIMIT, MAX_LIMIT } from './query-plan.js';
export { EmbeddedReadStore, type EmbeddedReadStoreOptions } from './embedded/embedded-read-store.js';
export { MongoReadStore } from './mongodb/mongodb-read-store.js';

export interface ReadStoreOptions {
  /** When set, MongoDB; otherwise the embedded store under `dataDir`. */
  mongodbUrl?: string;
  mongodbDatabase: string;
  dataDir: string;
}

export async function openReadStore(options: ReadStoreOptions): Promise<ReadStore> {
  if (options.mongodbUrl) return MongoReadStore.open(options.mongodbUrl, options.mongodbDatabase);
  // Projections only: LMDB commits in order, so a durable checkpoint implies durable documents
  // before it, and anything lost in a crash is replayed idempotently (docs/adr/0003).
  return EmbeddedReadStore.open(path.join(options.dataDir, 'read-models'), { durability: 'committed' });
}
export * from './for-each-document.js';
