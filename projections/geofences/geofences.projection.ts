import {
  GEOFENCE_READ_INDEXES,
  GEOFENCES_READ_MODEL,
  geofenceDoc,
  type GeofenceCreated,
  type GeofenceDoc,
} from '../../libs/monitoring/src/index.js';
import type { Projection } from '../../libs/platform/src/index.js';

/**
 * The active geofences of every account (GET /v2/geofence), and what the
 * fence index loads at start. A deleted fence's document is removed; the
 * store keeps its position, so a replayed creation cannot bring it back.
 */
export const geofencesProjection: Projection<GeofenceDoc> = {
  name: GEOFENCES_READ_MODEL.name,
  version: GEOFENCES_READ_MODEL.version,
  streamPrefixes: ['geofence-'],
  handles: ['GeofenceCreated', 'GeofenceDeleted'],
  indexes: GEOFENCE_READ_INDEXES,
  async apply(event, collection) {
    const fenceId = String(event.data.fence_id);
    switch (event.type) {
      case 'GeofenceCreated':
        await collection.apply(fenceId, event.position, () => geofenceDoc(event.data as GeofenceCreated['data']));
        break;
      case 'GeofenceDeleted':
        await collection.apply(fenceId, event.position, () => null);
        break;
    }
  },
};
