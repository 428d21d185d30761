import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import { AdminOnly } from '../../../../platform/src/index.js';
import { AccountIdPipe } from '../../account-id.pipe.js';
import { accountView } from '../../account.view.js';
import { SetBankingAccessCommand } from './set-banking-access.handler.js';
import { SetBankingAccessRequest } from './set-banking-access.request.js';

/** decisions.md, "Operator interface": an event on the account's stream, also `npm run ops -- accounts:*`. */
@ApiTags('admin')
@ApiSecurity('api_key')
@Controller('v2/admin/accounts/:accountId')
export class SetBankingAccessController {
  constructor(private readonly commands: CommandBus) {}

  @Post('banking')
  @HttpCode(200)
  @AdminOnly()
  @ApiOperation({ summary: 'Grant or remove the banking features' })
  @ApiResponse({ status: 200, description: 'The account: `{account_id, name, email, tier, daily_limit, banking, ip_allowlist, opened_at}`' })
  @ApiResponse({ status: 404, description: 'ACCOUNT_NOT_FOUND' })
  async banking(@Param('accountId', AccountIdPipe) accountId: string, @Body() request: SetBankingAccessRequest) {
    const { state } = await this.commands.execute(new SetBankingAccessCommand({ type: 'SetBankingAccess', account_id: accountId, enabled: request.enabled }));
    return accountView(state);
  }
}
