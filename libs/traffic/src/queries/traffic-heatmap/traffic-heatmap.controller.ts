import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import { parseBox } from '../bbox.js';
import { TrafficHeatmapQuery } from './traffic-heatmap.handler.js';
import { ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { TrafficHeatmapSchema } from './traffic-heatmap.answer.js';

/** interface.md: GET /v2/analytics/traffic-heatmap, Key: the hex cells with a learned factor of their own. */
@ApiTags('analytics')
@ApiSecurity('api_key')
@Controller('v2/analytics/traffic-heatmap')
export class TrafficHeatmapController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiOperation({
    summary: 'Learned congestion per hex cell',
    description:
      'H3 res-8 cells with samples of their own, per hour of day: `{cell, lat, lng, hour, factor, source, samples, reporters, severity, color}`, inside `bbox` (north,south,east,west, at most 2° each way). ' +
      '`source` is `learned` once the cell-hour holds 5 samples from 3 distinct reporters (the figure routes use, shrunk toward the prior); until then `prior`, factor 1, severity `unknown` (docs/adr/0031).',
  })
  @ApiQuery({ name: 'bbox', required: true })
  @ApiAnswer(TrafficHeatmapSchema)
  @ApiResponse({ status: 400, description: 'INVALID_PARAM (`bbox`)' })
  heatmap(@Query('bbox') bbox?: string): Promise<AnswerOf<typeof TrafficHeatmapSchema>> {
    return this.queries.execute(new TrafficHeatmapQuery(parseBox(bbox, 2)));
  }
}
