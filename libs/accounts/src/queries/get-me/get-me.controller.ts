import { Controller, Get, Req } from '@nestjs/common';
import { ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { callingKey } from '../../authentication/calling-key.js';
import { MeAnswerSchema } from './get-me.answer.js';
import { GetMeQuery } from './get-me.handler.js';

@ApiTags('keys')
@ApiSecurity('api_key')
@Controller('v2/me')
export class GetMeController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiOperation({ summary: 'The calling key: account, prefix, tier, daily limit and current usage' })
  @ApiAnswer(MeAnswerSchema)
  me(@Req() request: FastifyRequest): Promise<AnswerOf<typeof MeAnswerSchema>> {
    return this.queries.execute(new GetMeQuery(callingKey(request)));
  }
}
