import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AccountOnly, ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { callingAccount } from '../../../../platform/src/index.js';
import { webhookView } from '../../domain/webhook.js';
import { DEFAULT_WEBHOOK_EVENT_TYPES } from '../../domain/notification.js';
import { WebhookConfigurationAnswerSchema } from './configure-webhook.answer.js';
import { ConfigureWebhookCommand } from './configure-webhook.handler.js';
import { ConfigureWebhookRequest } from './configure-webhook.request.js';

/** interface.md, "Webhook configuration (input)": one endpoint per account; configuring again replaces it. */
@ApiTags('webhooks')
@ApiSecurity('api_key')
@Controller('v2/webhooks')
export class ConfigureWebhookController {
  constructor(private readonly commands: CommandBus) {}

  @Post('configure')
  @HttpCode(200)
  @AccountOnly()
  @ApiOperation({
    summary: "Set the account's webhook endpoint (replaces any previous one)",
    description:
      'Deliveries are JSON POSTs with X-Webhook-Event, X-Webhook-Delivery (new per attempt), X-Webhook-Timestamp (attempt time, Unix seconds), X-Webhook-Signature (hex HMAC-SHA256 of the raw body) and X-Webhook-Signature-V2 (hex HMAC-SHA256 of `timestamp.body`). ' +
      'The receiver has 10 s (WEBHOOK_TIMEOUT_MS) to answer; a 2xx is delivered, anything else fails and is retried: at once, then after 10 s, 1 min, 5 min, 15 min, 30 min, 1 h, 2 h, 4 h, 8 h and 16 h ' +
      '(12 attempts over about 32 h; WEBHOOK_RETRY_DELAYS_MS). Deliveries still pending go to the new URL with the new secret.',
  })
  @ApiAnswer(WebhookConfigurationAnswerSchema, { requestExample: { url: 'https://hooks.kumasi-microfinance.com.gh/location-events', secret: 'whsec_6f1d2c9b8a7e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b9a8f7e', event_types: ['drift', 'geofence_breach'] } })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM (field `url`, `secret` or `event_types`); WEBHOOK_URL_NOT_ALLOWED (resolves to a private or loopback address); WEBHOOK_URL_UNRESOLVABLE' })
  @ApiResponse({ status: 403, description: 'ACCOUNT_KEY_REQUIRED' })
  @ApiResponse({ status: 409, description: 'CONCURRENCY_CONFLICT: the configuration kept changing under more than ten concurrent requests; send it again' })
  async configure(@Req() request: FastifyRequest, @Body() body: ConfigureWebhookRequest): Promise<AnswerOf<typeof WebhookConfigurationAnswerSchema>> {
    const { state } = await this.commands.execute(
      new ConfigureWebhookCommand({
        type: 'ConfigureWebhook',
        account_id: callingAccount(request),
        url: body.url,
        secret: body.secret,
        event_types: body.event_types ?? [...DEFAULT_WEBHOOK_EVENT_TYPES],
      }),
    );
    if (state.status !== 'configured') throw new Error('configuring left no webhook');
    return webhookView(state);
  }
}
