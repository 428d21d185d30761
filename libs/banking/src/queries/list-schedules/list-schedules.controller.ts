import { Controller, Get, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiPropertyOptional, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { ApiAnswer, BankingOnly, type AnswerOf } from '../../../../platform/src/index.js';
import { callingAccount } from '../../../../platform/src/index.js';
import { BANKING_ACCESS_DOC } from '../../banking-access.js';
import { ReverificationSchedulePageSchema } from './list-schedules.answer.js';
import { ListSchedulesQuery } from './list-schedules.handler.js';

export class ListSchedulesRequest {
  @ApiPropertyOptional({ enum: ['active', 'cancelled', 'stopped'], default: 'active' })
  @IsOptional()
  @IsIn(['active', 'cancelled', 'stopped'])
  status?: 'active' | 'cancelled' | 'stopped';

  @ApiPropertyOptional({ minimum: 1, maximum: 200, default: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  limit?: number;

  @ApiPropertyOptional({ description: 'next_cursor of the previous page' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  cursor?: string;
}

/** interface.md, "Banking features": GET /v2/verify/schedules. */
@ApiTags('banking')
@ApiSecurity('api_key')
@Controller('v2/verify')
export class ListSchedulesController {
  constructor(private readonly queries: QueryBus) {}

  @Get('schedules')
  @BankingOnly()
  @ApiOperation({ summary: "The account's re-verification schedules, newest first" })
  @ApiAnswer(ReverificationSchedulePageSchema)
  @ApiResponse({ status: 400, description: 'INVALID_PARAM (`status`, `limit`, `cursor`); READ_STORE_INVALID_CURSOR: a cursor from another query' })
  @ApiResponse({ status: 403, description: BANKING_ACCESS_DOC })
  async list(@Req() request: FastifyRequest, @Query() query: ListSchedulesRequest): Promise<AnswerOf<typeof ReverificationSchedulePageSchema>> {
    return this.queries.execute(new ListSchedulesQuery(callingAccount(request), query.status ?? 'active', query.limit ?? 50, query.cursor));
  }
}
