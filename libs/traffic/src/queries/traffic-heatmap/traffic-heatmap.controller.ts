import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import { parseBox } from '../bbox.js';
import { TrafficHeatmapQuery } from './traffic-heatmap.handler.js';

/** interface.md: GET /v2/analytics/traffic-heatmap, Key: the hex cells with a learned factor of their own. */
@ApiTags('analytics')
@Controller('v2/analytics/traffic-heatmap')
export class TrafficHeatmapController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiOperation({
    summary: 'Learned congestion per hex cell',
    description: 'H3 res-8 cells that have their own learned factor, per hour of day: `{cell, lat, lng, hour, factor, samples, severity, color}`, inside `bbox` (north,south,east,west, at most 2° each way).',
  })
  @ApiQuery({ name: 'bbox', required: true })
  @ApiResponse({ status: 200, description: '`{cells: [...], count}`' })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM (`bbox`)' })
  heatmap(@Query('bbox') bbox?: string) {
    return this.queries.execute(new TrafficHeatmapQuery(parseBox(bbox, 2)));
  }
}
