import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import { AdminOnly, ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { AdminAccountSchema } from '../../account.answer.js';
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
  @ApiAnswer(AdminAccountSchema, { description: '`data` is the AdminAccount after the change', requestExample: { enabled: true } })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming `accountId` (not acct_…) or the body field' })
  @ApiResponse({ status: 403, description: 'ADMIN_KEY_REQUIRED: the deployment has no operator key configured' })
  @ApiResponse({ status: 404, description: 'ACCOUNT_NOT_FOUND' })
  async banking(@Param('accountId', AccountIdPipe) accountId: string, @Body() request: SetBankingAccessRequest): Promise<AnswerOf<typeof AdminAccountSchema>> {
    const { state } = await this.commands.execute(new SetBankingAccessCommand({ type: 'SetBankingAccess', account_id: accountId, enabled: request.enabled }));
    return accountView(state);
  }
}
