import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { RouteAlongQuery, type LandmarksAlong } from './route-along.handler.js';
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
  @ApiResponse({ status: 200, description: '`{length_m, mode?, polyline, items: [{slug, name, kind, lat, lng, distance_along_m, offset_m, side, landmark_confidence}], truncated, attribution}`' })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming the field (`from`, `to`, `polyline`, `mode`…)' })
  along(@Query() request: RouteAlongRequest): Promise<LandmarksAlong> {
    const { from, to, mode, polyline, precision, radius_m, limit } = request;
    return this.queries.execute(new RouteAlongQuery({ from, to, mode, polyline, precision, radius_m, limit }));
  }
}
