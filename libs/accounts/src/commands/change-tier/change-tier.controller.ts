import { Body, Controller, Param, Put } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import { AdminOnly } from '../../../../platform/src/index.js';
import { AccountIdPipe } from '../../account-id.pipe.js';
import { accountView } from '../../account.view.js';
import { ChangeTierCommand } from './change-tier.handler.js';
import { ChangeTierRequest } from './change-tier.request.js';

/** decisions.md, "Operator interface": an event on the account's stream, also `npm run ops -- accounts:*`. */
@ApiTags('admin')
@ApiSecurity('api_key')
@Controller('v2/admin/accounts/:accountId')
export class ChangeTierController {
  constructor(private readonly commands: CommandBus) {}

  @Put('tier')
  @AdminOnly()
  @ApiOperation({ summary: 'Change the plan tier and with it the daily limit' })
  @ApiResponse({ status: 200, description: 'The account: `{account_id, name, email, tier, daily_limit, banking, ip_allowlist, opened_at}`' })
  @ApiResponse({ status: 404, description: 'ACCOUNT_NOT_FOUND' })
  async tier(@Param('accountId', AccountIdPipe) accountId: string, @Body() request: ChangeTierRequest) {
    const { state } = await this.commands.execute(new ChangeTierCommand({ type: 'ChangeTier', account_id: accountId, tier: request.tier }));
    return accountView(state);
  }
}
