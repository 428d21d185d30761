import { Controller, Get, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AccountOnly } from '../../../../platform/src/index.js';
import { MAX_WATCHING } from '../../domain/share.js';
import { signedInAccount } from '../../signed-in.js';
import { ListWatchingQuery } from './list-watching.handler.js';

/** interface.md, "Partner locator": GET /v2/locator/watching, whom the caller can see. */
@ApiTags('locator')
@ApiSecurity('api_key')
@Controller('v2/locator')
export class ListWatchingController {
  constructor(private readonly queries: QueryBus) {}

  @Get('watching')
  @AccountOnly()
  @ApiOperation({ summary: 'Whose location you can see', description: `Your active pairings as a viewer (at most ${MAX_WATCHING}), oldest expiry first; revoked and expired ones are not listed.` })
  @ApiResponse({ status: 200, description: '`{items: [{pairing_id, target_id, target_name, paired_at, expires_at}]}`; `target_id` goes into GET /v2/locator/{targetId}/location' })
  @ApiResponse({ status: 403, description: 'ACCOUNT_KEY_REQUIRED or PERSONAL_TOKEN_REQUIRED' })
  watching(@Req() request: FastifyRequest) {
    return this.queries.execute(new ListWatchingQuery(signedInAccount(request)));
  }
}
