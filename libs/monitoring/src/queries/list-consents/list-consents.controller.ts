import { Controller, Get, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AccountOnly, callingAccount } from '../../../../platform/src/index.js';
import { ListConsentsQuery } from './list-consents.handler.js';
import { CONSENTS_DEFAULT_LIMIT, ListConsentsRequest } from './list-consents.request.js';

/** Issue 26 (docs/adr/0032): an account's consents, as a regulator would ask for them. */
@ApiTags('monitoring')
@ApiSecurity('api_key')
@Controller('v2/consents')
export class ListConsentsController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @AccountOnly()
  @ApiOperation({
    summary: "The calling account's consents, by customer id",
    description:
      'Each record as GET /v2/consent/status answers it: `{customer_id, status, consent_id, purpose, scope, notice {version, sha256, language}, channel, captured_at, proof, granted_at, revoked_at, data_erased_at}`; ' +
      'grants recorded before notices were captured read `unspecified`. Cursor pagination: pass `next_cursor` back as `cursor` until it is null.',
  })
  @ApiResponse({ status: 200, description: '`{items: [consent…], next_cursor}`' })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM (`status`, `limit` or `cursor`)' })
  list(@Req() request: FastifyRequest, @Query() query: ListConsentsRequest) {
    return this.queries.execute(new ListConsentsQuery(callingAccount(request), { status: query.status, limit: query.limit ?? CONSENTS_DEFAULT_LIMIT, cursor: query.cursor }));
  }
}
