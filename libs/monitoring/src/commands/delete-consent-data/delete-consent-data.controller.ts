import { Body, Controller, HttpCode, Inject, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { AccountOnly, PROJECTION_WAITER, type ProjectionWaiter } from '../../../../platform/src/index.js';
import { callingAccount } from '../../calling-account.js';
import { CustomerRequest } from '../../consent.requests.js';
import { Consents } from '../../consents.js';
import { assertDataDeletable } from '../../domain/consent.js';
import { Locations } from '../../locations.js';
import { settleLocationReadModels } from '../../location-read-models.js';

/**
 * interface.md, "Consent states": revoked → the customer's pings and drift
 * events are erased immediately; 400 unless revoked. Crypto-shredding (ADR 12):
 * the data key goes first, then the location stream and the caches built from
 * it; the CustomerDataErased record (who, when, how many events; no location)
 * is appended last, and the answer waits until the read models have dropped
 * the customer. Consent history, KYC verifications and certificates stay.
 */
@ApiTags('monitoring')
@ApiSecurity('api_key')
@Controller('v2/consent')
export class DeleteConsentDataController {
  constructor(
    private readonly consents: Consents,
    private readonly locations: Locations,
    @Inject(PROJECTION_WAITER) private readonly waiter: ProjectionWaiter,
  ) {}

  @Post('delete-data')
  @HttpCode(200)
  @AccountOnly()
  @ApiOperation({ summary: "Erase a customer's location pings, zone, drift and geofence events (consent must be revoked first)" })
  @ApiResponse({ status: 200, description: '`{customer_id, erased: true, erased_at, events_erased}`; repeating it is harmless' })
  @ApiResponse({ status: 400, description: 'CONSENT_NOT_REVOKED: the consent is granted or was never given' })
  async deleteData(@Req() request: FastifyRequest, @Body() body: CustomerRequest) {
    const accountId = callingAccount(request);
    const customerId = body.customer_id;
    assertDataDeletable(await this.consents.state(accountId, customerId), customerId);
    const { events_erased } = await this.locations.erase(accountId, customerId);
    const erasedBy = request.principal?.key_prefix ?? 'unknown';
    const { state, position } = await this.consents.executeWithPosition(accountId, customerId, (now) => ({
      type: 'RecordErasure',
      account_id: accountId,
      customer_id: customerId,
      erased_by: erasedBy,
      events_erased,
      now,
    }));
    await settleLocationReadModels(this.waiter, position);
    return { customer_id: customerId, erased: true, erased_at: state.status === 'revoked' ? (state.erased_at ?? null) : null, events_erased };
  }
}
