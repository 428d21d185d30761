import { Controller, Get, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { BankingOnly } from '../../../../platform/src/index.js';
import { ownAccount } from '../../own-account.js';
import type { AsOfAnswer } from '../../replay/as-of-replay.js';
import { GetAccountAsOfQuery } from './get-account-as-of.handler.js';
import { OwnAccountAsOfRequest } from './get-account-as-of.request.js';
import { ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { AccountAsOfSchema as AsOfAnswerSchema } from './get-account-as-of.answer.js';

/**
 * Issue 30: a banking account's compliance staff (its key, or a personal
 * token of one of its users) rebuild their own account as of an instant,
 * without the operator. The account is the caller's; naming another one is
 * 403 ACCOUNT_MISMATCH. Audited like every call (the access chain).
 */
@ApiTags('compliance')
@ApiSecurity('api_key')
@Controller('v2/compliance')
export class OwnAccountAsOfController {
  constructor(private readonly queries: QueryBus) {}

  @Get('as-of')
  @BankingOnly()
  @ApiOperation({ summary: "The calling account's state at an instant (tier, keys with the tier GET /v2/me showed, users, consents, webhook, geofences, loans, schedules), the changes and operator actions that led there, and its access history up to it" })
  @ApiAnswer(AsOfAnswerSchema)
  @ApiResponse({ status: 403, description: 'ACCOUNT_MISMATCH: `account_id` names another account' })
  async get(@Req() request: FastifyRequest, @Query() query: OwnAccountAsOfRequest): Promise<AnswerOf<typeof AsOfAnswerSchema>> {
    return this.queries.execute(new GetAccountAsOfQuery(ownAccount(request, query.account_id), new Date(query.at)));
  }
}
