import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AccountOnly, ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { MAX_LIVE_CODES, SHARE_CODE_TTL_S } from '../../domain/share.js';
import { signedInAccount } from '../../signed-in.js';
import { IssueShareCodeCommand } from './issue-share-code.handler.js';
import { IssueShareCodeRequest } from './issue-share-code.request.js';
import { IssueShareCodeAnswerSchema } from './issue-share-code.answer.js';

/** interface.md, "Partner locator": (none) → share code minted (short-lived, single use). */
@ApiTags('locator')
@ApiSecurity('api_key')
@Controller('v2/locator')
export class IssueShareCodeController {
  constructor(private readonly commands: CommandBus) {}

  @Post('share-token')
  @HttpCode(201)
  @AccountOnly()
  @ApiOperation({
    summary: 'Mint a single-use share code for someone who should see your location',
    description:
      `The code (12 characters of Crockford base 32, 60 random bits, shown as \`XXXX-XXXX-XXXX\`) is returned once and stored only as a keyed digest. ` +
      `It can be redeemed once, within ${SHARE_CODE_TTL_S / 60} minutes; several codes may be live at once (at most ${MAX_LIVE_CODES}), each becoming its own pairing. ` +
      'Needs a personal token (POST /v2/auth/login): the person sharing is the account, whatever device.',
  })
  @ApiAnswer(IssueShareCodeAnswerSchema, { status: 201, requestExample: { share_for_s: 86400, label: 'Mum' } })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM (`share_for_s`, `label`)' })
  @ApiResponse({ status: 403, description: 'ACCOUNT_KEY_REQUIRED or PERSONAL_TOKEN_REQUIRED: sign in as a person' })
  @ApiResponse({ status: 409, description: `SHARE_CODE_LIMIT_REACHED: ${MAX_LIVE_CODES} unused codes are live` })
  async issue(@Req() request: FastifyRequest, @Body() body: IssueShareCodeRequest = {}): Promise<AnswerOf<typeof IssueShareCodeAnswerSchema>> {
    return this.commands.execute(new IssueShareCodeCommand(signedInAccount(request), body.share_for_s ?? null, body.label ?? null));
  }
}
