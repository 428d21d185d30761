import { Controller, Delete, HttpCode, Param, Req } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AccountOnly, InvalidParamError, ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { signedInAccount } from '../../signed-in.js';
import { CancelShareCodeCommand } from './cancel-share-code.handler.js';
import { CancelShareCodeAnswerSchema } from './cancel-share-code.answer.js';

const SHARE_ID = /^shr_[0-9a-f]{32}$/;

/** Not in interface.md: an owner who sent a code to the wrong person takes it back before it is redeemed (docs/adr/0020). */
@ApiTags('locator')
@ApiSecurity('api_key')
@Controller('v2/locator')
export class CancelShareCodeController {
  constructor(private readonly commands: CommandBus) {}

  @Delete('share-token/:shareId')
  @HttpCode(200)
  @AccountOnly()
  @ApiOperation({ summary: 'Cancel one of your unused share codes', description: 'From this answer on, redeeming the code is SHARE_CODE_INVALID. Your other codes and pairings are untouched.' })
  @ApiParam({ name: 'shareId', description: '`share_id` from POST /v2/locator/share-token or `pending_codes` of GET /v2/locator/viewers', example: 'shr_0f5c2a9e4b7d4c1e8a3f6b2d9c0e1a7b' })
  @ApiAnswer(CancelShareCodeAnswerSchema)
  @ApiResponse({ status: 400, description: 'INVALID_PARAM (`shareId` is not a share id)' })
  @ApiResponse({ status: 403, description: 'ACCOUNT_KEY_REQUIRED or PERSONAL_TOKEN_REQUIRED' })
  @ApiResponse({ status: 404, description: 'SHARE_CODE_NOT_FOUND: not your code, or already redeemed, cancelled or expired' })
  async cancel(@Req() request: FastifyRequest, @Param('shareId') shareId: string): Promise<AnswerOf<typeof CancelShareCodeAnswerSchema>> {
    const owner = signedInAccount(request);
    if (!SHARE_ID.test(shareId)) throw new InvalidParamError('shareId is a share id (shr_ and 32 hex digits)', 'shareId');
    return this.commands.execute(new CancelShareCodeCommand(owner, shareId));
  }
}
