import { Controller, Get, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AccountOnly, ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { callingAccount } from '../../../../platform/src/index.js';
import { ListDeliveriesAnswerSchema } from './list-deliveries.answer.js';
import { ListDeliveriesQuery } from './list-deliveries.handler.js';
import { DAYS_DEFAULT, LIMIT_DEFAULT, ListDeliveriesRequest } from './list-deliveries.request.js';

/** interface.md, "GET /v2/webhooks/deliveries": delivery history, from the webhook_deliveries read model. */
@ApiTags('webhooks')
@ApiSecurity('api_key')
@Controller('v2/webhooks')
export class ListDeliveriesController {
  constructor(private readonly queries: QueryBus) {}

  @Get('deliveries')
  @AccountOnly()
  @ApiOperation({
    summary: "The account's webhook deliveries of the last `days` days, newest first, each with its attempts",
    description:
      'Each item: `delivery_id` (for POST /v2/webhooks/retry/{deliveryId}), `event_type`, `customer_id`, `event_timestamp` (the payload timestamp), `status` (attempted, delivered, failed, abandoned), `created_at`, `updated_at`, `attempt_count`, `next_attempt_at` (when a failed delivery is retried; null once out of retries), `abandoned_reason` (why it will not be attempted again by itself: data_erased, not_subscribed, or retries_exhausted for a failed delivery whose schedule is used up) and `attempts` (the newest 50: `attempt`, `attempt_id` = that attempt\'s X-Webhook-Delivery, `attempted_at`, `manual`, `outcome`, `status_code`, `error`, `duration_ms`). ' +
      'A delivery appears once its first attempt is recorded, normally within a second of the event. ' +
      'Deliveries of drift and geofence_breach events of a customer whose data was erased (POST /v2/consent/delete-data) are no longer listed.',
  })
  @ApiAnswer(ListDeliveriesAnswerSchema)
  @ApiResponse({ status: 400, description: 'INVALID_PARAM (field `days`, `limit` or `cursor`)' })
  @ApiResponse({ status: 403, description: 'ACCOUNT_KEY_REQUIRED' })
  list(@Req() request: FastifyRequest, @Query() query: ListDeliveriesRequest): Promise<AnswerOf<typeof ListDeliveriesAnswerSchema>> {
    return this.queries.execute(new ListDeliveriesQuery({ account_id: callingAccount(request), days: query.days ?? DAYS_DEFAULT, limit: query.limit ?? LIMIT_DEFAULT, cursor: query.cursor }));
  }
}
