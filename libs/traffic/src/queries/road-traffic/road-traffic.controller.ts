import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import { ApiAnswer, InvalidParamError, type AnswerOf } from '../../../../platform/src/index.js';
import { RoadTrafficAnswerSchema } from './road-traffic.answer.js';
import { RoadTrafficQuery } from './road-traffic.handler.js';

/** interface.md: GET /v2/route/traffic, Key. */
@ApiTags('routing')
@ApiSecurity('api_key')
@Controller('v2/route/traffic')
export class RoadTrafficController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiOperation({
    summary: 'Congestion per road class',
    description:
      'motorway, primary, secondary, residential: `multiplier` of free-flow time, `severity` (free, moderate, heavy, severe) and `color`, for now or `at` (ISO 8601). ' +
      'Every figure says its `source`: `learned` (the mean of the hex cells whose congestion was learned at that hour from 5+ samples by 3+ distinct reporters, shrunk toward the prior) ' +
      'or `prior` (`prior_source` static_speed_profile: the routing engine\'s free-flow speeds, factor 1; nothing measured). Routes and the heatmap read the same model (docs/adr/0031).',
  })
  @ApiQuery({ name: 'at', required: false })
  @ApiAnswer(RoadTrafficAnswerSchema)
  @ApiResponse({ status: 400, description: 'INVALID_PARAM (`at`)' })
  get(@Query('at') at?: string): Promise<AnswerOf<typeof RoadTrafficAnswerSchema>> {
    const when = at === undefined ? null : new Date(at);
    if (when && Number.isNaN(when.getTime())) throw new InvalidParamError('at must be an ISO 8601 time', 'at');
    return this.queries.execute(new RoadTrafficQuery(when));
  }
}
