import { Body, Controller, Param, Put } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import { AdminOnly, ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { AdminAccountSchema } from '../../account.answer.js';
import { AccountIdPipe } from '../../account-id.pipe.js';
import { accountView } from '../../account.view.js';
import { IpAllowlist } from '../../domain/ip-allowlist.js';
import { ReplaceIpAllowlistCommand } from './replace-ip-allowlist.handler.js';
import { ReplaceIpAllowlistRequest } from './replace-ip-allowlist.request.js';

/** decisions.md, "Operator interface": an event on the account's stream, also `npm run ops -- accounts:*`. */
@ApiTags('admin')
@ApiSecurity('api_key')
@Controller('v2/admin/accounts/:accountId')
export class ReplaceIpAllowlistController {
  constructor(private readonly commands: CommandBus) {}

  @Put('ip-allowlist')
  @AdminOnly()
  @ApiOperation({ summary: 'Replace the IP allowlist of the banking endpoints; an empty list removes it' })
  @ApiAnswer(AdminAccountSchema, { description: '`data` is the AdminAccount after the change', requestExample: { entries: ['196.216.12.7', '10.0.0.0/8', '2001:db8::/32'] } })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming `accountId` (not acct_…) or the body field' })
  @ApiResponse({ status: 403, description: 'ADMIN_KEY_REQUIRED: the deployment has no operator key configured' })
  @ApiResponse({ status: 404, description: 'ACCOUNT_NOT_FOUND' })
  async ipAllowlist(@Param('accountId', AccountIdPipe) accountId: string, @Body() request: ReplaceIpAllowlistRequest): Promise<AnswerOf<typeof AdminAccountSchema>> {
    const { state } = await this.commands.execute(
      new ReplaceIpAllowlistCommand({
        type: 'ReplaceIpAllowlist',
        account_id: accountId,
        entries: [...IpAllowlist.parse(request.entries).entries],
      }),
    );
    return accountView(state);
  }
}
