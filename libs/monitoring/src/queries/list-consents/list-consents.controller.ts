import { Controller, Get, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AccountOnly, callingAccount } from '../../../../platform/src/index.js';
import { ListConsentsQuery } from './list-consents.handler.js';
import { CONSENTS_DEFAULT_LIMIT, ListConsentsRequest } from './list-consents.request.js';
import { ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { ConsentPageSchema } from './list-consents.answer.js';

/** Issue 26, item 5: an account's consent records (docs/adr/0032, "Listing"). */
@ApiTags('monitoring')
@ApiSecurity('api_key')
@Controller('v2/consents')
export class ListConsentsController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @AccountOnly()
  @ApiOperation({
    summary: "The calling account's consent records, one per customer, cursor-paged",
    description:
      "Each customer's consent as it stands: `active` (granted), `revoked`, or `erased` (revoked and its data deleted). " +
      'An erased record stays listed, with `customer_id: null`: the id is kept only sealed under a key the erasure destroyed (ADR 12), so the record says what was agreed, when and how, without naming the customer. ' +
      'Ordered by an opaque, stable key (not by time); pass `next_cursor` back as `cursor` with the same `status`. `receipt_ids` are the `jti` of the receipts the record was answered with (receipts are re-issued by repeating the request, not stored). ' +
      'Only the calling account\'s records: the same customer id under another account is another customer.',
  })
  @ApiAnswer(ConsentPageSchema)
  @ApiResponse({ status: 400, description: 'INVALID_PARAM (field `limit`, `status` or `cursor`)' })
  @ApiResponse({ status: 403, description: 'ACCOUNT_KEY_REQUIRED: consents belong to an account' })
  list(@Req() request: FastifyRequest, @Query() query: ListConsentsRequest): Promise<AnswerOf<typeof ConsentPageSchema>> {
    return this.queries.execute(new ListConsentsQuery(callingAccount(request), { status: query.status, limit: query.limit ?? CONSENTS_DEFAULT_LIMIT, cursor: query.cursor }));
  }
}
