import type { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import {
  checkpointName,
  collectionName,
  forEachDocument,
  LogFollower,
  type FollowedView,
  type EventRegistry,
  type EventStore,
  type JsonLogger,
  type ReadStore,
  type RecordedEvent,
} from '../../../platform/src/index.js';
import type { GeofenceCreated, GeofenceDeleted } from './domain/geofence.js';
import type { FenceIndex } from './public/fence-index.js';
import { definitionOfDoc, GEOFENCE_READ_INDEXES, GEOFENCES_READ_MODEL, type GeofenceDoc } from './public/geofence-view.js';

const PREFIXES = ['geofence-'];

/**
 * Fills the FenceIndex and keeps it current, like the key directory: at start
 * it loads the `geofences` read model as of its checkpoint (so a restart does
 * not read the whole log, pings included), then follows the `geofence-`
 * streams from that checkpoint. The read model may be ahead of its checkpoint;
 * replaying those events again is harmless because adding and removing a
 * fence are idempotent. A command that created or deleted a fence waits
 * (`waitFor`) until this process's index has applied it, so a fence is
 * evaluated against the next ping from the moment its creation is acknowledged.
 */
export class GeofenceFeed implements OnApplicationBootstrap, OnModuleDestroy, FollowedView {
  static readonly readModel = 'geofence_index';
  readonly follower: LogFollower;

  constructor(
    events: EventStore,
    private readonly readStore: ReadStore,
    registry: EventRegistry,
    private readonly index: FenceIndex,
    private readonly logger?: Pick<JsonLogger, 'error' | 'warn'>,
  ) {
    this.follower = new LogFollower(
      events,
      registry,
      readStore,
      {
        name: 'geofence index',
        streamPrefixes: PREFIXES,
        start: { from: 'load', key: checkpointName(GEOFENCES_READ_MODEL), load: () => this.load() },
        sink: { handle: (event) => this.apply(event) },
      },
      logger,
    );
  }

  start(): Promise<void> {
    return this.follower.start();
  }

  private async load(): Promise<void> {
    const collection = await this.readStore.collection<GeofenceDoc>(collectionName(GEOFENCES_READ_MODEL), GEOFENCE_READ_INDEXES);
    await forEachDocument(collection, { index: 'by_created' }, (doc) => this.safely(doc.id, () => this.index.add(definitionOfDoc(doc))));
  }


  /** Nest starts it before the application serves its first request. */
  onApplicationBootstrap(): Promise<void> {
    return this.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.follower.stop();
  }

  waitFor(position: bigint, timeoutMs: number): Promise<void> {
    return this.follower.waitFor(position, timeoutMs);
  }

  private async apply(event: RecordedEvent): Promise<void> {
    if (event.type === 'GeofenceCreated') {
      const data = event.data as GeofenceCreated['data'];
      // Sliced: an isochrone fence's cover is thousands of candidates judged against up to 1,000 edges (docs/adr/0042).
      try {
        await this.index.addSliced(data);
      } catch (error) {
        this.logger?.error({ msg: 'geofence not indexed', fence_id: data.fence_id, err: error instanceof Error ? error.message : String(error) }, 'geofences');
      }
    } else if (event.type === 'GeofenceDeleted') {
      const data = event.data as GeofenceDeleted['data'];
      this.index.remove(data.account_id, data.fence_id);
    }
  }

  /** A fence that cannot be indexed (a stored shape that no longer validates) is logged and skipped: one bad fence must not stop every other. */
  private safely(fenceId: string, add: () => unknown): void {
    try {
      add();
    } catch (error) {
      this.logger?.error({ msg: 'geofence not indexed', fence_id: fenceId, err: error instanceof Error ? error.message : String(error) }, 'geofences');
    }
  }
}
