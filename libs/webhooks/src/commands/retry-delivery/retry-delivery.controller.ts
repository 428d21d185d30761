import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AccountOnly, ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { callingAccount } from '../../../../platform/src/index.js';
import { DELIVERY_ID, parseDeliveryId } from '../../domain/delivery.js';
import { RetryDeliveryAnswerSchema } from './retry-delivery.answer.js';
import { RetryDeliveryCommand } from './retry-delivery.handler.js';

/** interface.md, "Webhook delivery": failed → POST /v2/webhooks/retry/{deliveryId} → attempted. */
@ApiTags('webhooks')
@ApiSecurity('api_key')
@Controller('v2/webhooks')
export class RetryDeliveryController {
  constructor(private readonly commands: CommandBus) {}

  @Post('retry/:deliveryId')
  @HttpCode(202)
  @AccountOnly()
  @ApiOperation({
    summary: 'Re-send one delivery now',
    description:
      'Queues a new attempt with a new X-Webhook-Delivery id, signed with the current secret and sent to the current URL; a failed re-send is retried on the usual schedule. ' +
      'Any delivery may be re-sent, a delivered one included (a receiver that lost what it acknowledged asks for it again); automatic retries of a delivery stop once any attempt is delivered. ' +
      'An erased customer\'s delivery, or one of an event type no longer subscribed, ends abandoned without being sent.',
  })
  @ApiParam({ name: 'deliveryId', description: '`delivery_id` from GET /v2/webhooks/deliveries', schema: { type: 'string', pattern: DELIVERY_ID.source } })
  @ApiAnswer(RetryDeliveryAnswerSchema, { status: 202 })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM (field `deliveryId`)' })
  @ApiResponse({ status: 403, description: 'ACCOUNT_KEY_REQUIRED' })
  @ApiResponse({ status: 404, description: "WEBHOOK_DELIVERY_NOT_FOUND (unknown, or another account's); WEBHOOK_NOT_CONFIGURED" })
  @ApiResponse({ status: 409, description: 'CONCURRENCY_CONFLICT: the delivery kept changing under concurrent attempts; send it again' })
  async retry(@Req() request: FastifyRequest, @Param('deliveryId') deliveryId: string): Promise<AnswerOf<typeof RetryDeliveryAnswerSchema>> {
    const id = parseDeliveryId(deliveryId);
    const { requested_at } = await this.commands.execute(new RetryDeliveryCommand(callingAccount(request), id));
    return { delivery_id: id, status: 'attempted' as const, requested_at };
  }
}
