import { Controller, Get, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AccountOnly, ApiAnswer, callingAccount, type AnswerOf } from '../../../../platform/src/index.js';
import { ListConsentNoticesQuery } from './list-consent-notices.handler.js';
import { ConsentNoticeListSchema } from './list-consent-notices.answer.js';

/** docs/adr/0059. */
@ApiTags('monitoring')
@ApiSecurity('api_key')
@Controller('v2/consent/notices')
export class ListConsentNoticesController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @AccountOnly()
  @ApiOperation({ summary: 'The consent notices this account registered, with their hashes (texts: GET /v2/consent/notices/{version})' })
  @ApiAnswer(ConsentNoticeListSchema)
  @ApiResponse({ status: 403, description: 'ACCOUNT_KEY_REQUIRED: notices belong to an account' })
  async list(@Req() request: FastifyRequest): Promise<AnswerOf<typeof ConsentNoticeListSchema>> {
    return this.queries.execute(new ListConsentNoticesQuery(callingAccount(request)));
  }
}
