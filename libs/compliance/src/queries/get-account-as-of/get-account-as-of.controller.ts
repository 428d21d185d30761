import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import { AdminOnly, ApiAnswer, InvalidParamError, type AnswerOf } from '../../../../platform/src/index.js';
import { AccountAsOfSchema } from './get-account-as-of.answer.js';
import { GetAccountAsOfQuery } from './get-account-as-of.handler.js';
import { GetAccountAsOfRequest } from './get-account-as-of.request.js';

const ACCOUNT_ID = /^acct_[A-Za-z0-9]{1,64}$/;

/** Issue 14: what an account could do, and did, at an instant, folded from the log by its contexts' deciders (docs/adr/0023). */
@ApiTags('admin')
@ApiSecurity('api_key')
@Controller('v2/admin/accounts')
export class GetAccountAsOfController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':accountId/as-of')
  @AdminOnly()
  @ApiParam({ name: 'accountId', type: String })
  @ApiOperation({ summary: "The account's state at an instant (tier, banking access, allowlist, keys, users, consents, webhook, geofences), the changes and operator actions that led there, and its access history up to it" })
  @ApiAnswer(AccountAsOfSchema)
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming `accountId` (not acct_…) or `at`' })
  @ApiResponse({ status: 403, description: 'ADMIN_KEY_REQUIRED: the deployment has no operator key configured' })
  @ApiResponse({ status: 404, description: 'ACCOUNT_NOT_FOUND: nothing of the account in the log up to `at`' })
  async get(@Param('accountId') accountId: string, @Query() query: GetAccountAsOfRequest): Promise<AnswerOf<typeof AccountAsOfSchema>> {
    if (!ACCOUNT_ID.test(accountId)) throw new InvalidParamError('accountId is not an account id (acct_…)', 'accountId');
    return this.queries.execute(new GetAccountAsOfQuery(accountId, new Date(query.at)));
  }
}
