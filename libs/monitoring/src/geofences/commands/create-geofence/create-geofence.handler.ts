import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { command, PipelineCommand, PipelineHandler } from '../../../../../platform/src/index.js';
import { ISOCHRONES, type Isochrones } from '../../../../../routing/src/index.js';
import { geofenceDecider, geofenceStream, isochroneGeometry, type AskedGeometry, type GeofenceCommand, type GeofenceCreated, type GeofenceEvent, type GeofenceState } from '../../domain/geofence.js';
import { FenceIndex } from '../../public/fence-index.js';
import { GeofenceFeed } from '../../geofence-feed.js';
import { GEOFENCES_READ_MODEL, geofenceView, type GeofenceView } from '../../public/geofence-view.js';

type CreateGeofence = Extract<GeofenceCommand, { type: 'CreateGeofence' }>;

export const createGeofence = command<CreateGeofence, GeofenceState, GeofenceEvent, { index: FenceIndex; isochrones: Isochrones }>({
  name: 'monitoring.create-geofence',
  stream: (create) => geofenceStream(create.account_id, create.fence_id),
  decider: geofenceDecider,
  inject: { index: FenceIndex, isochrones: ISOCHRONES },
  prepare: async (input, _loaded, { index, isochrones }) => ({
    ...input,
    geometry: await computeArea(input.geometry, isochrones),
    // The account's limit is counted in this process's index: a soft limit across instances.
    active_fences: index.countFor(input.account_id),
  }),
  // A fresh random id: the only possible conflict is another writer of it, which deciding again refuses (GEOFENCE_EXISTS).
  onConflict: { retry: 1 },
  awaits: [
    // Pings are checked against the index next: the fence counts from the moment this answers.
    GeofenceFeed.readModel,
    // Soft: the answer is built from the decided event and the index, not from the list. A 504 after a
    // stored creation would invite a retry, and a retry creates a second fence (ids are fresh each time).
    { readModel: GEOFENCES_READ_MODEL.name, soft: true },
  ],
});

/**
 * An isochrone fence's area: what the road network reaches from the centre
 * within the minutes (routing's IsochroneService, which refuses a bad
 * `minutes` or `mode` with 400 and a centre far from any road with 422
 * NO_ROAD_NEARBY), kept as a polygon under the polygon fences' limits.
 * (A retry after a conflict computes it again; with a fresh id that is rare.)
 */
async function computeArea(geometry: AskedGeometry, isochrones: Isochrones): Promise<AskedGeometry> {
  if (geometry.fence_type !== 'isochrone' || 'isochrone' in geometry) return geometry;
  const area = await isochrones.isochrone({ center: geometry.center, minutes: geometry.minutes as number, mode: geometry.mode });
  return isochroneGeometry(geometry.center, area.polygon, { minutes: area.minutes, mode: area.mode, snapped: area.snapped, h3_resolution: area.h3_resolution });
}

export interface NewGeofence {
  geometry: AskedGeometry;
  name: string | null;
  customer_id: string | null;
  loan_id: string | null;
}

/** The fence's creation as the slice's process dispatches it. */
export class RecordGeofenceCommand extends PipelineCommand<CreateGeofence, GeofenceState, GeofenceEvent> {}

@CommandHandler(RecordGeofenceCommand)
export class RecordGeofenceHandler extends PipelineHandler<CreateGeofence, GeofenceState, GeofenceEvent, { index: FenceIndex; isochrones: Isochrones }> {
  protected readonly definition = createGeofence;
}

/** POST /v2/geofence/create. */
export class CreateGeofenceCommand extends Command<GeofenceView> {
  constructor(
    readonly accountId: string,
    readonly fence: NewGeofence,
  ) {
    super();
  }
}

/** The process: names the new fence, dispatches its creation, and answers the fence as the index covers it. */
@CommandHandler(CreateGeofenceCommand)
export class CreateGeofenceHandler implements ICommandHandler<CreateGeofenceCommand, GeofenceView> {
  constructor(
    private readonly commands: CommandBus,
    private readonly index: FenceIndex,
  ) {}

  async execute({ accountId, fence }: CreateGeofenceCommand): Promise<GeofenceView> {
    const fenceId = `gf_${randomUUID().replaceAll('-', '')}`;
    const { events } = await this.commands.execute(new RecordGeofenceCommand({ type: 'CreateGeofence', account_id: accountId, fence_id: fenceId, ...fence }));
    const created = events[0] as GeofenceCreated;
    return geofenceView(created.data, this.index.summaryOf(accountId, fenceId));
  }
}
