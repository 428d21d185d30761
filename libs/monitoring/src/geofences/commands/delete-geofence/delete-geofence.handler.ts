import { CommandHandler } from '@nestjs/cqrs';
import { command, PipelineCommand, PipelineHandler } from '../../../../../platform/src/index.js';
import { geofenceDecider, geofenceStream, type GeofenceCommand, type GeofenceEvent, type GeofenceState } from '../../domain/geofence.js';
import { GeofenceFeed } from '../../geofence-feed.js';
import { GEOFENCES_READ_MODEL } from '../../public/geofence-view.js';

type DeleteGeofence = Extract<GeofenceCommand, { type: 'DeleteGeofence' }>;

/** DELETE /v2/geofence/{id}. */
export const deleteGeofence = command<DeleteGeofence, GeofenceState, GeofenceEvent>({
  name: 'monitoring.delete-geofence',
  stream: (remove) => geofenceStream(remove.account_id, remove.fence_id),
  decider: geofenceDecider,
  // A retry re-decides on fresh state: a delete that raced another answers GEOFENCE_NOT_FOUND, as it would have after it.
  onConflict: { retry: 3 },
  awaits: [
    // Pings are no longer checked against the fence from the moment this answers.
    GeofenceFeed.readModel,
    // Soft: the answer is built from the decided event, not from the list; a 504 after a stored
    // deletion would make the client's retry answer 404 for a fence it never saw deleted.
    { readModel: GEOFENCES_READ_MODEL.name, soft: true },
  ],
});

export class DeleteGeofenceCommand extends PipelineCommand<DeleteGeofence, GeofenceState, GeofenceEvent> {}

@CommandHandler(DeleteGeofenceCommand)
export class DeleteGeofenceHandler extends PipelineHandler<DeleteGeofence, GeofenceState, GeofenceEvent> {
  protected readonly definition = deleteGeofence;
}
