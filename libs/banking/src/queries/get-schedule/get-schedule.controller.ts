import { Controller, Get, Param, Req } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { ApiAnswer, BankingOnly, callingAccount, type AnswerOf } from '../../../../platform/src/index.js';
import { BANKING_ACCESS_DOC } from '../../banking-access.js';
import { ReverificationScheduleSchema } from '../../reverification/schedule.answer.js';
import { parseScheduleId } from '../../domain/schedule.js';
import { GetScheduleQuery } from './get-schedule.handler.js';

/** interface.md, "Banking features": GET /v2/verify/schedule/{id}, from the schedule's own stream (always current). */
@ApiTags('banking')
@ApiSecurity('api_key')
@Controller('v2/verify/schedule')
export class GetScheduleController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':id')
  @BankingOnly()
  @ApiParam({ name: 'id', description: 'The schedule id (rvs_…)' })
  @ApiOperation({ summary: 'A re-verification schedule, with its last run' })
  @ApiAnswer(ReverificationScheduleSchema)
  @ApiResponse({ status: 400, description: 'INVALID_PARAM (`id`)' })
  @ApiResponse({ status: 403, description: BANKING_ACCESS_DOC })
  @ApiResponse({ status: 404, description: "SCHEDULE_NOT_FOUND (unknown, or another account's)" })
  async get(@Req() request: FastifyRequest, @Param('id') id: string): Promise<AnswerOf<typeof ReverificationScheduleSchema>> {
    return this.queries.execute(new GetScheduleQuery(callingAccount(request), parseScheduleId(id)));
  }
}
