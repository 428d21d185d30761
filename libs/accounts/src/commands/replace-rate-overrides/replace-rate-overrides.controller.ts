import { Body, Controller, Param, Put } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import { AdminOnly, ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { AdminAccountSchema } from '../../account.answer.js';
import { AccountIdPipe } from '../../account-id.pipe.js';
import { accountView } from '../../account.view.js';
import { RATE_GROUPS, type RateOverrides } from '../../domain/rate-overrides.js';
import { ReplaceRateOverridesCommand } from './replace-rate-overrides.handler.js';
import { ReplaceRateOverridesRequest } from './replace-rate-overrides.request.js';

/** decisions.md, "Operator interface": an event on the account's stream, also `npm run ops -- accounts:rates`. */
@ApiTags('admin')
@ApiSecurity('api_key')
@Controller('v2/admin/accounts/:accountId')
export class ReplaceRateOverridesController {
  constructor(private readonly commands: CommandBus) {}

  @Put('rates')
  @AdminOnly()
  @ApiOperation({
    summary: "Replace the account's per-minute rates by endpoint group; an empty body restores the tier's",
    description: 'docs/guides/keys-and-limits.md: per-key rates by tier and group. The daily quota stays the tier\'s; the per-IP ceiling of keyed callers is never below an account\'s own rate.',
  })
  @ApiAnswer(AdminAccountSchema, { description: '`data` is the AdminAccount after the change', requestExample: { routing: 1500, transit: 600 } })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming `accountId` (not acct_…) or the body field (an unknown group, or not a whole number from 1 to 1,000,000)' })
  @ApiResponse({ status: 403, description: 'ADMIN_KEY_REQUIRED: the deployment has no operator key configured' })
  @ApiResponse({ status: 404, description: 'ACCOUNT_NOT_FOUND' })
  async rates(@Param('accountId', AccountIdPipe) accountId: string, @Body() request: ReplaceRateOverridesRequest): Promise<AnswerOf<typeof AdminAccountSchema>> {
    const rates: RateOverrides = {};
    for (const group of RATE_GROUPS) if (request[group] !== undefined) rates[group] = request[group];
    const { state } = await this.commands.execute(new ReplaceRateOverridesCommand({ type: 'ReplaceRateOverrides', account_id: accountId, rates }));
    return accountView(state);
  }
}
