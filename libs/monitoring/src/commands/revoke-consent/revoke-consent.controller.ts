import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AccountOnly } from '../../../../platform/src/index.js';
import { callingAccount } from '../../../../platform/src/index.js';
import { CustomerRequest } from '../../consent.requests.js';
import { RevokeConsentCommand } from '../../public/consent-commands.js';
import { ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { ConsentRevokedSchema } from './revoke-consent.answer.js';

/** interface.md, "Consent states": granted → revoked; future collection stops (RevokeConsentHandler). */
@ApiTags('monitoring')
@ApiSecurity('api_key')
@Controller('v2/consent')
export class RevokeConsentController {
  constructor(private readonly commands: CommandBus) {}

  @Post('revoke')
  @HttpCode(200)
  @AccountOnly()
  @ApiOperation({ summary: "Revoke a customer's consent: collection stops; their data may then be deleted" })
  @ApiAnswer(ConsentRevokedSchema, { requestExample: { customer_id: 'cust-8841' } })
  @ApiResponse({ status: 409, description: 'CONSENT_NOT_GRANTED: never granted, or already revoked' })
  async revoke(@Req() request: FastifyRequest, @Body() body: CustomerRequest): Promise<AnswerOf<typeof ConsentRevokedSchema>> {
    const accountId = callingAccount(request);
    // The handler revokes, stops collection and signs the receipt (docs/adr/0064); this door shapes the answer.
    const { state, consent_id, receipt } = await this.commands.execute(new RevokeConsentCommand(accountId, body.customer_id));
    return { customer_id: body.customer_id, status: state.status, revoked_at: state.revoked_at, purpose: state.purpose, consent_id, receipt };
  }
}
