import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AccountOnly, ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { MAX_VIEWERS, MAX_WATCHING } from '../../domain/share.js';
import { signedInAccount } from '../../signed-in.js';
import { RedeemShareCodeCommand } from './redeem-share-code.handler.js';
import { RedeemShareCodeRequest } from './redeem-share-code.request.js';
import { RedeemShareCodeAnswerSchema } from './redeem-share-code.answer.js';

/** interface.md, "Partner locator": share code (valid and unused) → pairing tied to the redeemer's own account. */
@ApiTags('locator')
@ApiSecurity('api_key')
@Controller('v2/locator')
export class RedeemShareCodeController {
  constructor(private readonly commands: CommandBus) {}

  @Post('redeem')
  @HttpCode(201)
  @AccountOnly()
  @ApiOperation({
    summary: "Redeem someone's share code: from now on you can see their location",
    description:
      'The pairing belongs to your account (a personal token), not to this device. An unknown, used or expired code gets one answer, SHARE_CODE_INVALID, whichever it was. ' +
      'Wrong codes are throttled: 10 per account and 50 per client IP in 15 minutes, then 429 RATE_LIMITED with Retry-After.',
  })
  @ApiAnswer(RedeemShareCodeAnswerSchema, { status: 201, requestExample: { code: '7QK4-M2XD-9HRT' } })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM (`code` malformed: not 12 Crockford base-32 characters); OWN_SHARE_CODE' })
  @ApiResponse({ status: 403, description: 'ACCOUNT_KEY_REQUIRED or PERSONAL_TOKEN_REQUIRED' })
  @ApiResponse({ status: 404, description: 'SHARE_CODE_INVALID: unknown, already used or expired (one answer for all three)' })
  @ApiResponse({ status: 409, description: `ALREADY_PAIRED (details \`{pairing_id}\`), VIEWER_LIMIT_REACHED (${MAX_VIEWERS} viewers), WATCHING_LIMIT_REACHED (${MAX_WATCHING})` })
  @ApiResponse({ status: 429, description: 'RATE_LIMITED: too many wrong codes from this account or IP' })
  async redeem(@Req() request: FastifyRequest, @Body() body: RedeemShareCodeRequest): Promise<AnswerOf<typeof RedeemShareCodeAnswerSchema>> {
    return this.commands.execute(new RedeemShareCodeCommand(signedInAccount(request), request.ip, body.code));
  }
}
