import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { CLOCK, collectionName, READ_STORE, type Clock, type ReadStore, type AnswerOf } from '../../../../platform/src/index.js';
import { NotificationCipher } from '../../notifications/notification-cipher.js';
import { DELIVERIES_BY_ACCOUNT, DELIVERIES_INDEXES, DELIVERIES_READ_MODEL, deliveryView, type DeliveryDoc } from '../../public/webhook-deliveries.read-model.js';
import type { ListDeliveriesAnswerSchema } from './list-deliveries.answer.js';

export type DeliveriesPage = AnswerOf<typeof ListDeliveriesAnswerSchema>;

const DAY_MS = 24 * 60 * 60 * 1000;

export interface ListDeliveries {
  account_id: string;
  days: number;
  limit: number;
  cursor?: string;
}

/** GET /v2/webhooks/deliveries. */
export class ListDeliveriesQuery extends Query<DeliveriesPage> {
  constructor(readonly query: ListDeliveries) {
    super();
  }
}

/** The webhook_deliveries read model, created in the last `days`, newest first. */
@QueryHandler(ListDeliveriesQuery)
export class ListDeliveriesHandler implements IQueryHandler<ListDeliveriesQuery> {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly cipher: NotificationCipher,
  ) {}

  async execute({ query }: ListDeliveriesQuery): Promise<DeliveriesPage> {
    const since = new Date(this.clock.now().getTime() - query.days * DAY_MS).toISOString();
    const collection = await this.readStore.collection<DeliveryDoc>(collectionName(DELIVERIES_READ_MODEL), DELIVERIES_INDEXES);
    const page = await collection.find({ index: DELIVERIES_BY_ACCOUNT, equals: [query.account_id], range: { gte: since }, direction: 'desc', limit: query.limit, cursor: query.cursor });
    return { items: page.items.map((doc) => deliveryView(doc, this.cipher.customerOf(doc.notification))), next_cursor: page.nextCursor };
  }
}
