import { Controller, Get, Param, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AccountOnly, ApiAnswer, callingAccount, type AnswerOf } from '../../../../platform/src/index.js';
import { GetConsentNoticeQuery } from './get-consent-notice.handler.js';
import { ConsentNoticeTextsSchema } from './get-consent-notice.answer.js';

/** docs/adr/0059: the texts a registered version's hashes bind, as registered. */
@ApiTags('monitoring')
@ApiSecurity('api_key')
@Controller('v2/consent/notices')
export class GetConsentNoticeController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':version')
  @AccountOnly()
  @ApiOperation({ summary: 'A registered consent notice version: each language with its hash and exact text' })
  @ApiAnswer(ConsentNoticeTextsSchema)
  @ApiResponse({ status: 400, description: 'INVALID_PARAM (field `version`)' })
  @ApiResponse({ status: 403, description: 'ACCOUNT_KEY_REQUIRED: notices belong to an account' })
  @ApiResponse({ status: 404, description: 'NOTICE_NOT_FOUND: this account registered no such version' })
  async get(@Req() request: FastifyRequest, @Param('version') version: string): Promise<AnswerOf<typeof ConsentNoticeTextsSchema>> {
    return this.queries.execute(new GetConsentNoticeQuery(callingAccount(request), version));
  }
}
