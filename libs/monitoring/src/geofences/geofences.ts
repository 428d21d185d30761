import { randomUUID } from 'node:crypto';
import {
  appendDecided,
  collectionName,
  loadStream,
  TimeoutError,
  type Clock,
  type EventRegistry,
  type EventStore,
  type ProjectionWaiter,
  type ReadStore,
} from '../../../platform/src/index.js';
import {
  decideGeofence,
  evolveGeofence,
  FENCE_ID,
  geofenceStream,
  GeofenceNotFoundError,
  initialGeofenceState,
  type FenceGeometry,
  type GeofenceCreated,
  type GeofenceState,
} from './domain/geofence.js';
import type { FenceIndex } from './fence-index.js';
import type { GeofenceFeed } from './geofence-feed.js';
import { GEOFENCE_READ_INDEXES, GEOFENCES_READ_MODEL, geofenceView, viewOfDoc, type GeofenceDoc, type GeofenceView } from './geofence-view.js';

export interface NewGeofence {
  geometry: FenceGeometry;
  name: string | null;
  customer_id: string | null;
  loan_id: string | null;
}

/** Runs geofence commands (load the fence's stream, decide, append with the expected revision) and answers its queries. */
export class Geofences {
  constructor(
    private readonly events: EventStore,
    private readonly registry: EventRegistry,
    private readonly readStore: ReadStore,
    private readonly index: FenceIndex,
    private readonly feed: GeofenceFeed,
    private readonly clock: Clock,
    private readonly waitMs: number,
    /** Absent where no projection runner is reachable: the list then catches up on its own. */
    private readonly readModels?: ProjectionWaiter,
  ) {}

  /** Answers once this process's index holds the fence (read your own write for the next ping). */
  async create(accountId: string, fence: NewGeofence): Promise<GeofenceView> {
    const fenceId = `gf_${randomUUID().replaceAll('-', '')}`;
    const decided = decideGeofence(
      { type: 'CreateGeofence', account_id: accountId, fence_id: fenceId, ...fence, active_fences: this.index.countFor(accountId), now: this.clock.now() },
      initialGeofenceState,
    );
    const { position } = await appendDecided(this.events, this.registry, geofenceStream(accountId, fenceId), decided, undefined);
    await this.settle(position);
    const created = decided[0] as GeofenceCreated;
    return geofenceView(created.data, this.index.summaryOf(accountId, fenceId));
  }

  /** From the fence's own stream, so a fence is readable as soon as its creation is acknowledged. */
  async get(accountId: string, fenceId: string): Promise<GeofenceView> {
    const state = await this.state(accountId, fenceId);
    if (state.status !== 'active') throw new GeofenceNotFoundError(fenceId);
    return geofenceView(state.fence, this.index.summaryOf(accountId, fenceId));
  }

  async delete(accountId: string, fenceId: string): Promise<{ id: string; deleted: true; deleted_at: string }> {
    if (!FENCE_ID.test(fenceId)) throw new GeofenceNotFoundError(fenceId);
    const stream = geofenceStream(accountId, fenceId);
    const { state, revision } = await loadStream(this.events, this.registry, stream, evolveGeofence, initialGeofenceState);
    const decided = decideGeofence({ type: 'DeleteGeofence', account_id: accountId, fence_id: fenceId, now: this.clock.now() }, state);
    const { position } = await appendDecided(this.events, this.registry, stream, decided, revision);
    await this.settle(position);
    const deleted = decided.reduce(evolveGeofence, state);
    if (deleted.status !== 'deleted') throw new Error('a delete left the geofence not deleted');
    return { id: fenceId, deleted: true, deleted_at: deleted.deleted_at };
  }

  /** The read model: it follows the log within milliseconds, newest first. */
  async list(accountId: string, query: { customer_id?: string; limit: number; cursor?: string }): Promise<{ items: GeofenceView[]; next_cursor: string | null }> {
    const collection = await this.readStore.collection<GeofenceDoc>(collectionName(GEOFENCES_READ_MODEL), GEOFENCE_READ_INDEXES);
    const page = await collection.find({
      index: query.customer_id === undefined ? 'by_account' : 'by_account_customer',
      equals: query.customer_id === undefined ? [accountId] : [accountId, query.customer_id],
      direction: 'desc',
      limit: query.limit,
      cursor: query.cursor,
    });
    return { items: page.items.map(viewOfDoc), next_cursor: page.nextCursor };
  }

  /**
   * The index must hold the change before the command answers (pings are
   * checked against it next); the list read model is waited for too, but a
   * slow projection only delays the answer: the change is stored either way.
   */
  private async settle(position: bigint): Promise<void> {
    await this.feed.waitFor(position, this.waitMs);
    try {
      await this.readModels?.waitFor(GEOFENCES_READ_MODEL.name, position, this.waitMs);
    } catch (error) {
      if (!(error instanceof TimeoutError)) throw error;
    }
  }

  private async state(accountId: string, fenceId: string): Promise<GeofenceState> {
    if (!FENCE_ID.test(fenceId)) return initialGeofenceState;
    const { state } = await loadStream(this.events, this.registry, geofenceStream(accountId, fenceId), evolveGeofence, initialGeofenceState);
    return state;
  }
}
