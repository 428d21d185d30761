import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { collectionName, READ_STORE, type ReadStore, type AnswerOf } from '../../../../../platform/src/index.js';
import { GEOFENCE_READ_INDEXES, GEOFENCES_READ_MODEL, viewOfDoc, type GeofenceDoc } from '../../public/geofence-view.js';
import type { GeofencePageSchema } from './list-geofences.answer.js';

export type GeofencePage = AnswerOf<typeof GeofencePageSchema>;

/** GET /v2/geofence. */
export class ListGeofencesQuery extends Query<GeofencePage> {
  constructor(
    readonly accountId: string,
    readonly filter: { customer_id?: string; limit: number; cursor?: string },
  ) {
    super();
  }
}

/** The `geofences` read model, which follows the log within milliseconds; newest first. */
@QueryHandler(ListGeofencesQuery)
export class ListGeofencesHandler implements IQueryHandler<ListGeofencesQuery> {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  async execute({ accountId, filter: query }: ListGeofencesQuery): Promise<GeofencePage> {
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
