import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { AccountNotFoundError } from '../../../../accounts/src/index.js';
import { AccessRecorder } from '../../../../audit/src/index.js';
import { AdminOnly, EVENT_STORE, EventRegistry, InvalidParamError, type EventStore } from '../../../../platform/src/index.js';
import { AsOfRegistry, replayAsOf, type AsOfAnswer } from '../../replay/as-of-replay.js';
import { GetAccountAsOfRequest } from './get-account-as-of.request.js';

const ACCOUNT_ID = /^acct_[A-Za-z0-9]{1,64}$/;

/** Issue 14: what an account could do, and did, at an instant, folded from the log by its contexts' deciders (docs/adr/0023). */
@ApiTags('admin')
@ApiSecurity('api_key')
@Controller('v2/admin/accounts')
export class GetAccountAsOfController {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly registry: EventRegistry,
    private readonly contributors: AsOfRegistry,
    private readonly recorder: AccessRecorder,
  ) {}

  @Get(':accountId/as-of')
  @AdminOnly()
  @ApiParam({ name: 'accountId', type: String })
  @ApiOperation({ summary: "The account's state at an instant (tier, banking access, allowlist, keys, users, consents, webhook, geofences), the changes and operator actions that led there, and its access history up to it" })
  async get(@Param('accountId') accountId: string, @Query() query: GetAccountAsOfRequest): Promise<AsOfAnswer> {
    if (!ACCOUNT_ID.test(accountId)) throw new InvalidParamError('accountId is not an account id (acct_…)', 'accountId');
    await this.recorder.applied();
    const answer = await replayAsOf(this.events, this.registry, this.contributors, accountId, new Date(query.at));
    if (answer.state.account === null && answer.changes.length === 0 && answer.access.total === 0) throw new AccountNotFoundError(accountId);
    return answer;
  }
}
