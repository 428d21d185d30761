import type { RecordedEvent } from '../event-store/event-store.port.js';
import type { Doc, IndexSpec, ReadCollection } from '../read-store/read-store.port.js';

/**
 * One read model, built from the log. Changing how a projection evolves its
 * documents bumps `version`, which gives a new collection (`<name>_v<version>`)
 * rebuilt beside the old one from the log (style.md, "Projections").
 */
export interface Projection<T extends Doc = Doc> {
  name: string;
  version: number;
  /** Only events of streams starting with these prefixes are delivered. */
  streamPrefixes: string[];
  /** Event types it reacts to; each must be registered in the EventRegistry. */
  handles: readonly string[];
  indexes: IndexSpec[];
  /**
   * Applies one (upcast) event. Must be idempotent: write through
   * `collection.apply(id, event.position, …)` so a redelivered event is skipped.
   */
  apply(event: RecordedEvent, collection: ReadCollection<T>): Promise<void>;
  /**
   * `apply` makes its one write (`collection.apply`) before its first await
   * and reads nothing an earlier event wrote outside that write: on a read
   * store whose writes take effect in call order (`writesInCallOrder`), the
   * runner then applies a batch of events per commit (FollowerSpec.pipelined).
   */
  pipelined?: boolean;
}

export function collectionName(projection: Pick<Projection, 'name' | 'version'>): string {
  return `${projection.name}_v${projection.version}`;
}

export function checkpointName(projection: Pick<Projection, 'name' | 'version'>): string {
  return `projection:${collectionName(projection)}`;
}
