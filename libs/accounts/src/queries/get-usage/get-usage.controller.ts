import { Controller, Get, Req } from '@nestjs/common';
import { ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { callingKey } from '../../authentication/calling-key.js';
import { UsageAnswerSchema } from './get-usage.answer.js';
import { GetUsageQuery } from '../../usage.query.js';

@ApiTags('keys')
@ApiSecurity('api_key')
@Controller('v2/usage')
export class GetUsageController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiOperation({ summary: 'Consumption against the plan over the rolling 24 h window' })
  @ApiAnswer(UsageAnswerSchema)
  usage(@Req() request: FastifyRequest): Promise<AnswerOf<typeof UsageAnswerSchema>> {
    return this.queries.execute(new GetUsageQuery(callingKey(request)));
  }
}
