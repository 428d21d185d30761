import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import { ApiAnswer, Public, type AnswerOf } from '../../../../platform/src/index.js';
import { parseBox } from '../bbox.js';
import { ListIncidentsAnswerSchema } from './list-incidents.answer.js';
import { ListIncidentsQuery } from './list-incidents.handler.js';

/** interface.md: GET /v2/route/incidents, Public: the live incidents. */
@ApiTags('routing')
@Controller('v2/route/incidents')
export class ListIncidentsController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @Public()
  @ApiOperation({ summary: 'Live road hazards', description: 'Incidents not yet expired, oldest first; `bbox` (north,south,east,west) filters.' })
  @ApiQuery({ name: 'bbox', required: false })
  @ApiAnswer(ListIncidentsAnswerSchema)
  @ApiResponse({ status: 400, description: 'INVALID_PARAM (`bbox`)' })
  @ApiResponse({ status: 429, description: 'RATE_LIMITED: the per-IP throttle for requests without a key; wait Retry-After seconds' })
  list(@Query('bbox') bbox?: string): Promise<AnswerOf<typeof ListIncidentsAnswerSchema>> {
    return this.queries.execute(new ListIncidentsQuery(bbox === undefined ? null : parseBox(bbox, 5)));
  }
}
