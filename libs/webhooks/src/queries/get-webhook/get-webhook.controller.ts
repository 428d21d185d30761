import { Controller, Get, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AccountOnly, ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { callingAccount } from '../../../../platform/src/index.js';
import { WebhookConfigurationAnswerSchema } from './get-webhook.answer.js';
import { GetWebhookQuery } from './get-webhook.handler.js';

@ApiTags('webhooks')
@ApiSecurity('api_key')
@Controller('v2/webhooks')
export class GetWebhookController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @AccountOnly()
  @ApiOperation({ summary: "The account's webhook configuration, without the secret" })
  @ApiAnswer(WebhookConfigurationAnswerSchema)
  @ApiResponse({ status: 403, description: 'ACCOUNT_KEY_REQUIRED' })
  @ApiResponse({ status: 404, description: 'WEBHOOK_NOT_CONFIGURED' })
  get(@Req() request: FastifyRequest): Promise<AnswerOf<typeof WebhookConfigurationAnswerSchema>> {
    return this.queries.execute(new GetWebhookQuery(callingAccount(request)));
  }
}
