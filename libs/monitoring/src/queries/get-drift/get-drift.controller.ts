import { Controller, Get, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AccountOnly } from '../../../../platform/src/index.js';
import { callingAccount } from '../../../../platform/src/index.js';
import { CustomerRequest } from '../../consent.requests.js';
import { GetDriftQuery } from '../../drift/drift.query.js';
import { ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { DriftStateSchema } from '../../drift/drift.answer.js';

/** GET /v2/monitoring/drift?customer_id=: the current drift state (interface.md, "Drift event payload" names its fields). */
@ApiTags('monitoring')
@ApiSecurity('api_key')
@Controller('v2/monitoring')
export class GetDriftController {
  constructor(private readonly queries: QueryBus) {}

  @Get('drift')
  @AccountOnly()
  @ApiOperation({ summary: "A customer's current drift state against their registered zone" })
  @ApiAnswer(DriftStateSchema)
  async current(@Req() request: FastifyRequest, @Query() query: CustomerRequest): Promise<AnswerOf<typeof DriftStateSchema>> {
    return this.queries.execute(new GetDriftQuery(callingAccount(request), query.customer_id));
  }
}
