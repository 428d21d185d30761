import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { AccountOnly } from '../../../../platform/src/index.js';
import { callingAccount } from '../../calling-account.js';
import { CustomerRequest } from '../../consent.requests.js';
import { Consents } from '../../consents.js';
import { Locations } from '../../locations.js';

/**
 * interface.md, "Consent states": granted → revoked; future collection stops.
 * The answer waits for the CollectionStopped marker in the location stream:
 * once it is given, no ping append that read the old consent can succeed (ADR 12).
 */
@ApiTags('monitoring')
@ApiSecurity('api_key')
@Controller('v2/consent')
export class RevokeConsentController {
  constructor(
    private readonly consents: Consents,
    private readonly locations: Locations,
  ) {}

  @Post('revoke')
  @HttpCode(200)
  @AccountOnly()
  @ApiOperation({ summary: "Revoke a customer's consent: collection stops; their data may then be deleted" })
  @ApiResponse({ status: 200, description: '`{customer_id, status: "revoked", revoked_at, purpose}`' })
  @ApiResponse({ status: 409, description: 'CONSENT_NOT_GRANTED: never granted, or already revoked' })
  async revoke(@Req() request: FastifyRequest, @Body() body: CustomerRequest) {
    const accountId = callingAccount(request);
    const state = await this.consents.execute(accountId, body.customer_id, (now) => ({
      type: 'RevokeConsent',
      account_id: accountId,
      customer_id: body.customer_id,
      now,
    }));
    if (state.status !== 'revoked') throw new Error('a revoke left the consent not revoked');
    await this.locations.stopCollection(accountId, body.customer_id);
    return { customer_id: body.customer_id, status: state.status, revoked_at: state.revoked_at, purpose: state.purpose };
  }
}
