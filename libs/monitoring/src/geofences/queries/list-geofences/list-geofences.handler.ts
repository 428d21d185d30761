import { Inject, Injectable } from '@nestjs/common';
import { collectionName, READ_STORE, type ReadStore } from '../../../../../platform/src/index.js';
import { GEOFENCE_READ_INDEXES, GEOFENCES_READ_MODEL, viewOfDoc, type GeofenceDoc, type GeofenceView } from '../../geofence-view.js';

/** GET /v2/geofence: the `geofences` read model, which follows the log within milliseconds; newest first. */
@Injectable()
export class ListGeofencesHandler {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

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
}
