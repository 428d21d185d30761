import { Controller, Get, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { BankingOnly } from '../../../../platform/src/index.js';
import { ownAccount } from '../../own-account.js';
import { GetAccountChangesQuery } from './get-account-changes.handler.js';
import { GetAccountChangesRequest } from './get-account-changes.request.js';
import { ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { ChangesAnswerSchema } from './get-account-changes.answer.js';

/** Issue 30: what changed in the calling banking account between two instants (its own only; audited like every call). */
@ApiTags('compliance')
@ApiSecurity('api_key')
@Controller('v2/compliance')
export class GetAccountChangesController {
  constructor(private readonly queries: QueryBus) {}

  @Get('changes')
  @BankingOnly()
  @ApiOperation({ summary: "Every change to the calling account in (from, to], with the operator's changing requests: the state as of from plus these is the state as of to" })
  @ApiAnswer(ChangesAnswerSchema)
  @ApiResponse({ status: 403, description: 'ACCOUNT_MISMATCH: `account_id` names another account' })
  async get(@Req() request: FastifyRequest, @Query() query: GetAccountChangesRequest): Promise<AnswerOf<typeof ChangesAnswerSchema>> {
    return this.queries.execute(new GetAccountChangesQuery(ownAccount(request, query.account_id), new Date(query.from), new Date(query.to)));
  }
}
