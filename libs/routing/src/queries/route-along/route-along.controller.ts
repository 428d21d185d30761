import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { RouteAlongAnswerSchema } from './route-along.answer.js';
import { RouteAlongQuery } from './route-along.handler.js';
import { RouteAlongRequest } from './route-along.request.js';

/** interface.md: GET /v2/route/along → landmarks along a route, with distance along it and side of the road. */
@ApiTags('routing')
@ApiSecurity('api_key')
@Controller('v2/route/along')
export class RouteAlongController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiOperation({
    summary: 'Landmarks along a route',
    description:
      'The landmarks within `radius_m` of a route, in the order the traveller passes them: `distance_along_m` from the start, `offset_m` from the line, `side` (left, right, on) for the direction of travel, and `landmark_confidence`. ' +
      'Give `from` and `to` (the route is computed for `mode`, as POST /v2/route) or an encoded `polyline`. Landmarks excluded by reports are not listed.',
  })
  @ApiAnswer(RouteAlongAnswerSchema)
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming the field (`from`, `to`, `polyline`, `mode`…)' })
  @ApiResponse({ status: 422, description: 'With `from` and `to`: NO_ROAD_NEARBY or NO_ROUTE' })
  @ApiResponse({ status: 503, description: 'With `from` and `to`: ROAD_NETWORK_NOT_LOADED, or ROUTING_ENGINE_UNAVAILABLE (the external engine)' })
  along(@Query() request: RouteAlongRequest): Promise<AnswerOf<typeof RouteAlongAnswerSchema>> {
    const { from, to, mode, polyline, precision, radius_m, limit } = request;
    return this.queries.execute(new RouteAlongQuery({ from, to, mode, polyline, precision, radius_m, limit }));
  }
}
