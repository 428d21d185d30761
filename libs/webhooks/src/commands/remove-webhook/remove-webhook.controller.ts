import { Controller, Delete, HttpCode, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { AccountOnly } from '../../../../platform/src/index.js';
import { callingAccount } from '../../calling-account.js';
import { Webhooks } from '../../webhooks.js';

/** Not in interface.md: the only way to stop deliveries without pointing them elsewhere. */
@ApiTags('webhooks')
@ApiSecurity('api_key')
@Controller('v2/webhooks')
export class RemoveWebhookController {
  constructor(private readonly webhooks: Webhooks) {}

  @Delete()
  @HttpCode(200)
  @AccountOnly()
  @ApiOperation({ summary: "Remove the account's webhook: pending deliveries are abandoned at their next attempt" })
  @ApiResponse({ status: 200, description: '`{removed: true}`' })
  @ApiResponse({ status: 404, description: 'WEBHOOK_NOT_CONFIGURED' })
  async remove(@Req() request: FastifyRequest) {
    await this.webhooks.remove(callingAccount(request));
    return { removed: true };
  }
}
