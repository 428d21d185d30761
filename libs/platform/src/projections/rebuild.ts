import type { EventStore } from '../event-store/event-store.port.js';
import type { EventRegistry } from '../events/event-registry.js';
import type { ReadStore } from '../read-store/read-store.port.js';
import { checkpointName, collectionName, type Projection } from './projection.js';

const PAGE = 1000;

export interface RebuildProgress {
  position: bigint;
  head: bigint;
  applied: number;
}

/**
 * Drops a projection's read model and replays the whole log into it. Run it
 * with the service stopped, or bump the projection's version so the live
 * service keeps serving the old collection while the new one is built.
 */
export async function rebuildProjection(
  projection: Projection,
  events: EventStore,
  readStore: ReadStore,
  registry: EventRegistry,
  onProgress: (progress: RebuildProgress) => void = () => undefined,
): Promise<RebuildProgress> {
  registry.assertKnown(projection.handles, `projection ${projection.name}`);
  const collection = await readStore.collection(collectionName(projection), projection.indexes);
  await collection.clear();
  await readStore.deleteCheckpoint(checkpointName(projection));
  const head = await events.headPosition();
  const handles = new Set(projection.handles);
  const prefixes = projection.streamPrefixes;
  const progress: RebuildProgress = { position: 0n, head, applied: 0 };
  for (;;) {
    const page = await events.readAll({ after: progress.position, maxCount: PAGE });
    if (page.length === 0) break;
    for (const event of page) {
      if (handles.has(event.type) && prefixes.some((prefix) => event.streamName.startsWith(prefix))) {
        await projection.apply(registry.upcast(event), collection as never);
        progress.applied++;
      }
      progress.position = event.position;
    }
    await readStore.setCheckpoint(checkpointName(projection), progress.position);
    onProgress({ ...progress, head: progress.position > head ? progress.position : head });
    if (progress.position >= head && page.length < PAGE) break;
  }
  return progress;
}
