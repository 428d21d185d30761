import { Body, Controller, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { AdminOnly, InvalidParamError } from '../../../../platform/src/index.js';
import { Accounts } from '../../accounts.js';
import { IpAllowlist } from '../../domain/ip-allowlist.js';
import type { Account } from '../../domain/account.js';
import { dailyLimitOf } from '../../quota.js';
import { ChangeTierRequest, ReplaceIpAllowlistRequest, SetBankingRequest } from './operate-account.requests.js';

const ACCOUNT_ID = /^acct_[A-Za-z0-9]{1,64}$/;

export function accountView(account: Account) {
  return {
    account_id: account.account_id,
    name: account.name,
    email: account.email,
    tier: account.tier,
    daily_limit: dailyLimitOf(account.tier),
    banking: account.banking,
    ip_allowlist: account.ip_allowlist,
    opened_at: account.opened_at,
  };
}

function checkAccountId(accountId: string): string {
  if (!ACCOUNT_ID.test(accountId)) throw new InvalidParamError('accountId is not an account id (acct_…)', 'accountId');
  return accountId;
}

/** decisions.md, "Operator interface": each action is an event on the account's stream. */
@ApiTags('admin')
@ApiSecurity('api_key')
@Controller('v2/admin/accounts/:accountId')
export class OperateAccountController {
  constructor(private readonly accounts: Accounts) {}

  @Post('banking')
  @HttpCode(200)
  @AdminOnly()
  @ApiOperation({ summary: 'Grant or remove the banking features' })
  async banking(@Param('accountId') accountId: string, @Body() request: SetBankingRequest) {
    const account = await this.accounts.execute(checkAccountId(accountId), (now) => ({ type: 'SetBankingAccess', enabled: request.enabled, now }));
    return accountView(account);
  }

  @Put('ip-allowlist')
  @AdminOnly()
  @ApiOperation({ summary: 'Replace the IP allowlist of the banking endpoints; an empty list removes it' })
  async ipAllowlist(@Param('accountId') accountId: string, @Body() request: ReplaceIpAllowlistRequest) {
    const entries = [...IpAllowlist.parse(request.entries).entries];
    const account = await this.accounts.execute(checkAccountId(accountId), (now) => ({ type: 'ReplaceIpAllowlist', entries, now }));
    return accountView(account);
  }

  @Put('tier')
  @AdminOnly()
  @ApiOperation({ summary: 'Change the plan tier and with it the daily limit' })
  async tier(@Param('accountId') accountId: string, @Body() request: ChangeTierRequest) {
    const account = await this.accounts.execute(checkAccountId(accountId), (now) => ({ type: 'ChangeTier', tier: request.tier, now }));
    return accountView(account);
  }
}
