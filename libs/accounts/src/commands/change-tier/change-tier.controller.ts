import { Body, Controller, Param, Put } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import { AdminOnly, ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { AdminAccountSchema } from '../../account.answer.js';
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
  @ApiAnswer(AdminAccountSchema, { description: '`data` is the AdminAccount after the change', requestExample: { tier: 'pro' } })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming `accountId` (not acct_…) or the body field' })
  @ApiResponse({ status: 403, description: 'ADMIN_KEY_REQUIRED: the deployment has no operator key configured' })
  @ApiResponse({ status: 404, description: 'ACCOUNT_NOT_FOUND' })
  async tier(@Param('accountId', AccountIdPipe) accountId: string, @Body() request: ChangeTierRequest): Promise<AnswerOf<typeof AdminAccountSchema>> {
    const { state } = await this.commands.execute(new ChangeTierCommand({ type: 'ChangeTier', account_id: accountId, tier: request.tier }));
    return accountView(state);
  }
}
