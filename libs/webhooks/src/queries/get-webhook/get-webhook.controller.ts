import { Controller, Get, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { AccountOnly } from '../../../../platform/src/index.js';
import { callingAccount } from '../../calling-account.js';
import { WebhookNotConfiguredError } from '../../domain/webhook.js';
import { Webhooks, webhookView } from '../../webhooks.js';

@ApiTags('webhooks')
@ApiSecurity('api_key')
@Controller('v2/webhooks')
export class GetWebhookController {
  constructor(private readonly webhooks: Webhooks) {}

  @Get()
  @AccountOnly()
  @ApiOperation({ summary: "The account's webhook configuration, without the secret" })
  @ApiResponse({ status: 200, description: '`{url, event_types, secret_length, configured_at}`' })
  @ApiResponse({ status: 404, description: 'WEBHOOK_NOT_CONFIGURED' })
  async get(@Req() request: FastifyRequest) {
    const state = await this.webhooks.state(callingAccount(request));
    if (state.status !== 'configured') throw new WebhookNotConfiguredError();
    return webhookView(state);
  }
}
