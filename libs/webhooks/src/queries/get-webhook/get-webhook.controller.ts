import { Controller, Get, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AccountOnly } from '../../../../platform/src/index.js';
import { callingAccount } from '../../../../platform/src/index.js';
import { GetWebhookQuery } from './get-webhook.handler.js';

@ApiTags('webhooks')
@ApiSecurity('api_key')
@Controller('v2/webhooks')
export class GetWebhookController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @AccountOnly()
  @ApiOperation({ summary: "The account's webhook configuration, without the secret" })
  @ApiResponse({ status: 200, description: '`{url, event_types, secret_length, configured_at}`' })
  @ApiResponse({ status: 404, description: 'WEBHOOK_NOT_CONFIGURED' })
  get(@Req() request: FastifyRequest) {
    return this.queries.execute(new GetWebhookQuery(callingAccount(request)));
  }
}
