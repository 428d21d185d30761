import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import { AdminOnly } from '../../../../platform/src/index.js';
import { ACCURACY_WINDOW_DAYS } from '../../domain/learned-traffic.js';
import { TrafficAccuracyQuery } from './traffic-accuracy.handler.js';

/** interface.md: GET /v2/admin/traffic/accuracy, admin. */
@ApiTags('admin')
@Controller('v2/admin/traffic/accuracy')
export class TrafficAccuracyController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @AdminOnly()
  @ApiOperation({
    summary: 'How well learned traffic predicts arrival times',
    description: `MAPE (percent) over the last ${ACCURACY_WINDOW_DAYS} days of the static and the learned ETA models, evaluated prequentially (each sample predicted with what was learned before it); learned_wins when the learned MAPE is lower.`,
  })
  @ApiResponse({ status: 200, description: '`{window_days, samples, samples_total, static_mape, learned_mape, learned_wins, arrival_error: {cells, arrivals, mean_m}}`' })
  accuracy() {
    return this.queries.execute(new TrafficAccuracyQuery());
  }
}
