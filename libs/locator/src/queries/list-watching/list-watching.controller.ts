import { Controller, Get, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AccountOnly, ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { MAX_WATCHING } from '../../domain/share.js';
import { signedInAccount } from '../../signed-in.js';
import { ListWatchingQuery } from './list-watching.handler.js';
import { ListWatchingAnswerSchema } from './list-watching.answer.js';

/** interface.md, "Partner locator": GET /v2/locator/watching, whom the caller can see. */
@ApiTags('locator')
@ApiSecurity('api_key')
@Controller('v2/locator')
export class ListWatchingController {
  constructor(private readonly queries: QueryBus) {}

  @Get('watching')
  @AccountOnly()
  @ApiOperation({ summary: 'Whose location you can see', description: `Your active pairings as a viewer (at most ${MAX_WATCHING}), oldest expiry first; revoked and expired ones are not listed.` })
  @ApiAnswer(ListWatchingAnswerSchema)
  @ApiResponse({ status: 403, description: 'ACCOUNT_KEY_REQUIRED or PERSONAL_TOKEN_REQUIRED' })
  watching(@Req() request: FastifyRequest): Promise<AnswerOf<typeof ListWatchingAnswerSchema>> {
    return this.queries.execute(new ListWatchingQuery(signedInAccount(request)));
  }
}
