import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { AccountOnly, NotImplementedError } from '../../../../platform/src/index.js';
import { callingAccount } from '../../calling-account.js';
import { CustomerRequest } from '../../consent.requests.js';
import { Consents } from '../../consents.js';
import { assertDataDeletable } from '../../domain/consent.js';

/**
 * interface.md, "Consent states": revoked → erase pings and drift events; 400
 * unless revoked. No pings are stored yet, so after the check this answers 501
 * rather than claim an erasure that did not happen.
 */
@ApiTags('monitoring')
@ApiSecurity('api_key')
@Controller('v2/consent')
export class DeleteConsentDataController {
  constructor(private readonly consents: Consents) {}

  @Post('delete-data')
  @HttpCode(200)
  @AccountOnly()
  @ApiOperation({ summary: "Erase a customer's location pings and drift events (consent must be revoked first)" })
  @ApiResponse({ status: 400, description: 'CONSENT_NOT_REVOKED: the consent is granted or was never given' })
  @ApiResponse({ status: 501, description: 'NOT_IMPLEMENTED: erasure is designed (crypto-shredding) but pings are not stored yet' })
  async deleteData(@Req() request: FastifyRequest, @Body() body: CustomerRequest): Promise<never> {
    const accountId = callingAccount(request);
    assertDataDeletable(await this.consents.state(accountId, body.customer_id), body.customer_id);
    throw new NotImplementedError(
      'data deletion is designed (crypto-shredding of the customer\'s pings and drift events) but location pings are not stored yet; nothing was erased',
    );
  }
}
