import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import { AdminOnly, ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { ACCURACY_WINDOW_DAYS } from '../../domain/learned-traffic.js';
import { TrafficAccuracySchema } from './traffic-accuracy.answer.js';
import { TrafficAccuracyQuery } from './traffic-accuracy.handler.js';

/** interface.md: GET /v2/admin/traffic/accuracy, admin. */
@ApiTags('admin')
@ApiSecurity('api_key')
@Controller('v2/admin/traffic/accuracy')
export class TrafficAccuracyController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @AdminOnly()
  @ApiOperation({
    summary: 'How well learned traffic predicts arrival times',
    description: `MAPE (percent) over the last ${ACCURACY_WINDOW_DAYS} days of the static and the learned ETA models, evaluated prequentially (each sample predicted with what was learned before it); learned_wins when the learned MAPE is lower.`,
  })
  @ApiAnswer(TrafficAccuracySchema)
  @ApiResponse({ status: 403, description: 'ADMIN_KEY_REQUIRED: the deployment has no operator key configured' })
  accuracy(): Promise<AnswerOf<typeof TrafficAccuracySchema>> {
    return this.queries.execute(new TrafficAccuracyQuery());
  }
}
