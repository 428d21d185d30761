import { Body, Controller, Param, Put } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import { AdminOnly } from '../../../../platform/src/index.js';
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
  @ApiResponse({ status: 200, description: 'The account: `{account_id, name, email, tier, daily_limit, banking, ip_allowlist, opened_at}`' })
  @ApiResponse({ status: 404, description: 'ACCOUNT_NOT_FOUND' })
  async ipAllowlist(@Param('accountId', AccountIdPipe) accountId: string, @Body() request: ReplaceIpAllowlistRequest) {
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
