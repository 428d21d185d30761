import { Controller, Delete, HttpCode, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AccountOnly, ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { callingAccount } from '../../../../platform/src/index.js';
import { RemoveWebhookAnswerSchema } from './remove-webhook.answer.js';
import { RemoveWebhookCommand } from './remove-webhook.handler.js';

/** Not in interface.md: the only way to stop deliveries without pointing them elsewhere. */
@ApiTags('webhooks')
@ApiSecurity('api_key')
@Controller('v2/webhooks')
export class RemoveWebhookController {
  constructor(private readonly commands: CommandBus) {}

  @Delete()
  @HttpCode(200)
  @AccountOnly()
  @ApiOperation({ summary: "Remove the account's webhook: pending deliveries are abandoned at their next attempt" })
  @ApiAnswer(RemoveWebhookAnswerSchema)
  @ApiResponse({ status: 403, description: 'ACCOUNT_KEY_REQUIRED' })
  @ApiResponse({ status: 404, description: 'WEBHOOK_NOT_CONFIGURED' })
  @ApiResponse({ status: 409, description: 'CONCURRENCY_CONFLICT: the configuration kept changing under concurrent requests; send it again' })
  async remove(@Req() request: FastifyRequest): Promise<AnswerOf<typeof RemoveWebhookAnswerSchema>> {
    await this.commands.execute(new RemoveWebhookCommand({ type: 'RemoveWebhook', account_id: callingAccount(request) }));
    return { removed: true as const };
  }
}
