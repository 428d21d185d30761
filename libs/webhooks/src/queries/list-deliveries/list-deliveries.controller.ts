import { Controller, Get, Inject, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { AccountOnly, CLOCK, collectionName, READ_STORE, type Clock, type ReadStore } from '../../../../platform/src/index.js';
import { callingAccount } from '../../calling-account.js';
import { DELIVERIES_BY_ACCOUNT, DELIVERIES_READ_MODEL, deliveryView, type DeliveryDoc } from '../../deliveries.read-model.js';
import { DAYS_DEFAULT, LIMIT_DEFAULT, ListDeliveriesRequest } from './list-deliveries.request.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** interface.md, "GET /v2/webhooks/deliveries": delivery history, from the webhook_deliveries read model. */
@ApiTags('webhooks')
@ApiSecurity('api_key')
@Controller('v2/webhooks')
export class ListDeliveriesController {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('deliveries')
  @AccountOnly()
  @ApiOperation({
    summary: "The account's webhook deliveries of the last `days` days, newest first, each with its attempts",
    description:
      'Each item: `delivery_id` (for POST /v2/webhooks/retry/{deliveryId}), `event_type`, `customer_id`, `event_timestamp` (the payload timestamp), `status` (attempted, delivered, failed, abandoned), `created_at`, `updated_at`, `attempt_count`, `next_attempt_at` (when a failed delivery is retried; null once out of retries), `abandoned_reason` (data_erased, not_subscribed) and `attempts` (the newest 50: `attempt`, `attempt_id` = that attempt\'s X-Webhook-Delivery, `attempted_at`, `manual`, `outcome`, `status_code`, `error`, `duration_ms`). ' +
      'A delivery appears once its first attempt is recorded, normally within a second of the event.',
  })
  @ApiResponse({ status: 200, description: '`{items, next_cursor}`' })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM (field `days`, `limit` or `cursor`)' })
  async list(@Req() request: FastifyRequest, @Query() query: ListDeliveriesRequest) {
    const accountId = callingAccount(request);
    const since = new Date(this.clock.now().getTime() - (query.days ?? DAYS_DEFAULT) * DAY_MS).toISOString();
    const collection = await this.readStore.collection<DeliveryDoc>(collectionName(DELIVERIES_READ_MODEL));
    const page = await collection.find({
      index: DELIVERIES_BY_ACCOUNT,
      equals: [accountId],
      range: { gte: since },
      direction: 'desc',
      limit: query.limit ?? LIMIT_DEFAULT,
      cursor: query.cursor,
    });
    return { items: page.items.map(deliveryView), next_cursor: page.nextCursor };
  }
}
