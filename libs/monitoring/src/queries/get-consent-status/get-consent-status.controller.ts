import { Controller, Get, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AccountOnly } from '../../../../platform/src/index.js';
import { callingAccount } from '../../../../platform/src/index.js';
import { CustomerRequest } from '../../consent.requests.js';
import { GetConsentStatusQuery } from './get-consent-status.handler.js';
import { ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { ConsentStatusSchema } from './get-consent-status.answer.js';

/** interface.md, "Identity, consent, monitoring": the status includes the purpose. */
@ApiTags('monitoring')
@ApiSecurity('api_key')
@Controller('v2/consent')
export class GetConsentStatusController {
  constructor(private readonly queries: QueryBus) {}

  @Get('status')
  @AccountOnly()
  @ApiOperation({ summary: "A customer's consent: granted, revoked or none (never granted under this account)" })
  @ApiAnswer(ConsentStatusSchema)
  async status(@Req() request: FastifyRequest, @Query() query: CustomerRequest): Promise<AnswerOf<typeof ConsentStatusSchema>> {
    return this.queries.execute(new GetConsentStatusQuery(callingAccount(request), query.customer_id));
  }
}
