import path from 'node:path';
import { EmbeddedEventStore } from './embedded/embedded-event-store.js';
import type { EventStore } from './event-store.port.js';
import { EventStoreDbEventStore } from './eventstoredb/eventstoredb-event-store.js';

export * from './event-store.port.js';
export * from './errors.js';
export { storedEventAt } from './stored-event.js';
export { EmbeddedEventStore } from './embedded/embedded-event-store.js';
export { EventStoreDbEventStore, UNKNOWN_POSITION } from './eventstoredb/eventstoredb-event-store.js';

export interface EventStoreOptions {
  /** EVENTSTORE_URL; when set, EventStoreDB is the store. */
  eventStoreUrl?: string;
  /** DATA_DIR; the embedded store lives in `<dataDir>/events`. */
  dataDir: string;
}

/** EventStoreDB when its URL is configured, the embedded LMDB store under DATA_DIR otherwise. */
export async function openEventStore(options: EventStoreOptions): Promise<EventStore> {
  if (options.eventStoreUrl) return EventStoreDbEventStore.connect(options.eventStoreUrl);
  return EmbeddedEventStore.open(path.join(options.dataDir, 'events'));
}
