import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AccountOnly } from '../../../../platform/src/index.js';
import { callingAccount } from '../../../../platform/src/index.js';
import { CustomerRequest } from '../../consent.requests.js';
import { DeleteConsentDataCommand } from '../../public/consent-commands.js';
import { ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { DataErasedSchema } from './delete-consent-data.answer.js';

/** interface.md, "Consent states": revoked → the customer's pings and drift events are erased immediately (DeleteConsentDataHandler). */
@ApiTags('monitoring')
@ApiSecurity('api_key')
@Controller('v2/consent')
export class DeleteConsentDataController {
  constructor(private readonly commands: CommandBus) {}

  @Post('delete-data')
  @HttpCode(200)
  @AccountOnly()
  @ApiOperation({ summary: "Erase a customer's location pings, zone, drift and geofence events (consent must be revoked first)" })
  @ApiAnswer(DataErasedSchema, { requestExample: { customer_id: 'cust-8841' } })
  @ApiResponse({ status: 400, description: 'CONSENT_NOT_REVOKED: the consent is granted or was never given' })
  async deleteData(@Req() request: FastifyRequest, @Body() body: CustomerRequest): Promise<AnswerOf<typeof DataErasedSchema>> {
    const customerId = body.customer_id;
    const accountId = callingAccount(request);
    // The handler erases, records the erasure and signs its receipt (docs/adr/0064); this door shapes the answer.
    const { erased_at, events_erased, consent_id, receipt } = await this.commands.execute(new DeleteConsentDataCommand(accountId, customerId, request.principal?.key_prefix ?? 'unknown'));
    return { customer_id: customerId, erased: true, erased_at, events_erased, consent_id, receipt };
  }
}
