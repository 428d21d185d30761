import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import { Public } from '../../../../platform/src/index.js';
import { parseBox } from '../bbox.js';
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
  @ApiResponse({ status: 200, description: '`{incidents: [{id, kind, lat, lng, note, corroborations, blocks_routes, first_reported_at, last_reported_at, expires_at}], count}`' })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM (`bbox`)' })
  list(@Query('bbox') bbox?: string) {
    return this.queries.execute(new ListIncidentsQuery(bbox === undefined ? null : parseBox(bbox, 5)));
  }
}
