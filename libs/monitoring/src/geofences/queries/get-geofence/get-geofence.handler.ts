import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { CommandPipeline } from '../../../../../platform/src/index.js';
import { FENCE_ID, geofenceDecider, geofenceStream, GeofenceNotFoundError } from '../../domain/geofence.js';
import { FenceIndex } from '../../public/fence-index.js';
import { geofenceView, type GeofenceView } from '../../public/geofence-view.js';

/** GET /v2/geofence/{id}. */
export class GetGeofenceQuery extends Query<GeofenceView> {
  constructor(
    readonly accountId: string,
    readonly fenceId: string,
  ) {
    super();
  }
}

/** From the fence's own stream, so a fence is readable as soon as its creation is acknowledged. */
@QueryHandler(GetGeofenceQuery)
export class GetGeofenceHandler implements IQueryHandler<GetGeofenceQuery> {
  constructor(
    private readonly commands: CommandPipeline,
    private readonly index: FenceIndex,
  ) {}

  async execute({ accountId, fenceId }: GetGeofenceQuery): Promise<GeofenceView> {
    if (!FENCE_ID.test(fenceId)) throw new GeofenceNotFoundError(fenceId);
    const { state } = await this.commands.read({ decider: geofenceDecider }, geofenceStream(accountId, fenceId));
    if (state.status !== 'active') throw new GeofenceNotFoundError(fenceId);
    return geofenceView(state.fence, this.index.summaryOf(accountId, fenceId));
  }
}
