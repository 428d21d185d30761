import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { ListArchivesAnswerSchema } from './list-archives.answer.js';
import { ListArchivesQuery } from './list-archives.handler.js';
import { ListArchivesRequest } from './list-archives.request.js';

/** The archives GET /v2/tiles/{name} serves, with what their PMTiles headers say about them. */
@ApiTags('tiles')
@ApiSecurity('api_key')
@Controller('v2/tiles')
export class ListArchivesController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiOperation({ summary: 'The basemap archives available, by name' })
  @ApiAnswer(ListArchivesAnswerSchema)
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming `limit` or `cursor`' })
  list(@Query() query: ListArchivesRequest): Promise<AnswerOf<typeof ListArchivesAnswerSchema>> {
    return this.queries.execute(new ListArchivesQuery(query.limit, query.cursor));
  }
}
