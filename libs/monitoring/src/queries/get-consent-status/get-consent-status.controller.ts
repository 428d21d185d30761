import { Controller, Get, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AccountOnly } from '../../../../platform/src/index.js';
import { callingAccount } from '../../../../platform/src/index.js';
import { CustomerRequest } from '../../consent.requests.js';
import { GetConsentStatusQuery } from './get-consent-status.handler.js';

/** interface.md, "Identity, consent, monitoring": the status includes the purpose. */
@ApiTags('monitoring')
@ApiSecurity('api_key')
@Controller('v2/consent')
export class GetConsentStatusController {
  constructor(private readonly queries: QueryBus) {}

  @Get('status')
  @AccountOnly()
  @ApiOperation({ summary: "A customer's consent: granted, revoked or none (never granted under this account)" })
  @ApiResponse({ status: 200, description: '`{customer_id, status, purpose, scope, granted_at, revoked_at, data_erased_at}`; null where not applicable' })
  async status(@Req() request: FastifyRequest, @Query() query: CustomerRequest) {
    return this.queries.execute(new GetConsentStatusQuery(callingAccount(request), query.customer_id));
  }
}
