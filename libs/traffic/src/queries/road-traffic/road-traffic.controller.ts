import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import { InvalidParamError } from '../../../../platform/src/index.js';
import { RoadTrafficQuery } from './road-traffic.handler.js';

/** interface.md: GET /v2/route/traffic, Key. */
@ApiTags('routing')
@Controller('v2/route/traffic')
export class RoadTrafficController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiOperation({ summary: 'Congestion per road class', description: 'motorway, primary, secondary, residential: `multiplier` of free-flow time, `severity` (free, moderate, heavy, severe) and `color`, for now or `at` (ISO 8601).' })
  @ApiQuery({ name: 'at', required: false })
  @ApiResponse({ status: 200, description: '`{at, hour, learned_samples, classes: [{road_class, multiplier, prior, severity, color}]}`' })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM (`at`)' })
  get(@Query('at') at?: string) {
    const when = at === undefined ? null : new Date(at);
    if (when && Number.isNaN(when.getTime())) throw new InvalidParamError('at must be an ISO 8601 time', 'at');
    return this.queries.execute(new RoadTrafficQuery(when));
  }
}
