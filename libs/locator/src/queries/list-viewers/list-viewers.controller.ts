import { Controller, Get, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AccountOnly, ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { MAX_LIVE_CODES, MAX_VIEWERS } from '../../domain/share.js';
import { signedInAccount } from '../../signed-in.js';
import { ListViewersQuery } from './list-viewers.handler.js';
import { ListViewersAnswerSchema } from './list-viewers.answer.js';

/** interface.md, "Partner locator": GET /v2/locator/viewers, who can see the caller. */
@ApiTags('locator')
@ApiSecurity('api_key')
@Controller('v2/locator')
export class ListViewersController {
  constructor(private readonly queries: QueryBus) {}

  @Get('viewers')
  @AccountOnly()
  @ApiOperation({
    summary: 'Who can see your location',
    description:
      `Your active pairings (at most ${MAX_VIEWERS}), oldest expiry first, and your unused share codes that can still be redeemed (at most ${MAX_LIVE_CODES}; the codes themselves are never shown again). ` +
      'Revoked and expired pairings and expired codes are not listed.',
  })
  @ApiAnswer(ListViewersAnswerSchema)
  @ApiResponse({ status: 403, description: 'ACCOUNT_KEY_REQUIRED or PERSONAL_TOKEN_REQUIRED' })
  viewers(@Req() request: FastifyRequest): Promise<AnswerOf<typeof ListViewersAnswerSchema>> {
    return this.queries.execute(new ListViewersQuery(signedInAccount(request)));
  }
}
