import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AccountOnly } from '../../../../platform/src/index.js';
import { MAX_LIVE_CODES, SHARE_CODE_TTL_S } from '../../domain/share.js';
import { ShareCodes } from '../../share-codes.js';
import { signedInAccount } from '../../signed-in.js';
import { IssueShareCodeCommand } from './issue-share-code.handler.js';
import { IssueShareCodeRequest } from './issue-share-code.request.js';

/** interface.md, "Partner locator": (none) → share code minted (short-lived, single use). */
@ApiTags('locator')
@ApiSecurity('api_key')
@Controller('v2/locator')
export class IssueShareCodeController {
  constructor(
    private readonly commands: CommandBus,
    private readonly codes: ShareCodes,
  ) {}

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
  @ApiResponse({ status: 201, description: '`{share_id, code, expires_at, ttl_s, share_for_s, label}`; `share_id` becomes the pairing id once redeemed' })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM (`share_for_s`, `label`)' })
  @ApiResponse({ status: 403, description: 'ACCOUNT_KEY_REQUIRED or PERSONAL_TOKEN_REQUIRED: sign in as a person' })
  @ApiResponse({ status: 409, description: `SHARE_CODE_LIMIT_REACHED: ${MAX_LIVE_CODES} unused codes are live` })
  async issue(@Req() request: FastifyRequest, @Body() body: IssueShareCodeRequest = {}) {
    const owner = signedInAccount(request);
    const { code, share_id } = this.codes.mint();
    const { state } = await this.commands.execute(
      new IssueShareCodeCommand({
        type: 'IssueShareCode',
        share_id,
        owner_account_id: owner,
        code_digest: await this.codes.digest(code),
        share_for_s: body.share_for_s ?? null,
        label: body.label ?? null,
        live_codes: 0,
      }),
    );
    if (state.status !== 'issued') throw new Error('issuing a share code left no issued code');
    return { share_id, code, expires_at: state.offer.code_expires_at, ttl_s: SHARE_CODE_TTL_S, share_for_s: state.offer.share_for_s, label: state.offer.label };
  }
}
