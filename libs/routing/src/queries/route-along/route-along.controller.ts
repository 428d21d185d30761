import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Landmarks } from '../../../../places/src/index.js';
import { InvalidParamError } from '../../../../platform/src/index.js';
import { decodePolyline, PolylineError } from '../../domain/polyline.js';
import { RoutePlanner } from '../../route-planner.js';
import { landmarksAlong } from '../../routes/route-along.js';
import { parseLatLngParam } from '../point.query.js';
import { DEFAULT_ALONG_RADIUS_M, MAX_ALONG_LENGTH_M, RouteAlongRequest } from './route-along.request.js';
import { haversineM } from '../../engine/geo.js';

/** interface.md: GET /v2/route/along → landmarks along a route, with distance along it and side of the road. */
@ApiTags('routing')
@ApiSecurity('api_key')
@Controller('v2/route/along')
export class RouteAlongController {
  constructor(
    private readonly planner: RoutePlanner,
    private readonly landmarks: Landmarks,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'Landmarks along a route',
    description:
      'The landmarks within `radius_m` of a route, in the order the traveller passes them: `distance_along_m` from the start, `offset_m` from the line, `side` (left, right, on) for the direction of travel, and `landmark_confidence`. ' +
      'Give `from` and `to` (the route is computed for `mode`, as POST /v2/route) or an encoded `polyline`. Landmarks excluded by reports are not listed.',
  })
  @ApiResponse({ status: 200, description: '`{length_m, mode?, polyline, items: [{slug, name, kind, lat, lng, distance_along_m, offset_m, side, landmark_confidence}], truncated, attribution}`' })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming the field (`from`, `to`, `polyline`, `mode`…)' })
  async along(@Query() request: RouteAlongRequest) {
    let line: Array<[number, number]>;
    let mode: string | undefined;
    if (request.polyline !== undefined) {
      if (request.from !== undefined || request.to !== undefined) throw new InvalidParamError('give either polyline or from and to, not both', 'polyline');
      try {
        line = decodePolyline(request.polyline, request.precision ?? 5);
      } catch (error) {
        throw new InvalidParamError(`polyline is not an encoded polyline: ${error instanceof PolylineError ? error.message : 'malformed'}`, 'polyline');
      }
      if (line.length < 2) throw new InvalidParamError('polyline must hold at least two points', 'polyline');
      let length = 0;
      for (let i = 1; i < line.length; i++) length += haversineM(line[i - 1][1], line[i - 1][0], line[i][1], line[i][0]);
      if (length > MAX_ALONG_LENGTH_M) throw new InvalidParamError(`polyline is ${Math.round(length / 1000)} km long; landmarks are listed along at most ${MAX_ALONG_LENGTH_M / 1000} km`, 'polyline');
    } else {
      if (request.from === undefined) throw new InvalidParamError('from is required ("lat,lng"), or give polyline', 'from');
      if (request.to === undefined) throw new InvalidParamError('to is required ("lat,lng"), or give polyline', 'to');
      const plan = await this.planner.plan({ from: parseLatLngParam(request.from, 'from'), to: parseLatLngParam(request.to, 'to'), mode: request.mode });
      line = plan.route.geometry.coordinates;
      mode = plan.mode;
    }
    const { items, length_m, truncated } = landmarksAlong(this.landmarks, line, request.radius_m ?? DEFAULT_ALONG_RADIUS_M, request.limit ?? 50);
    return { length_m, ...(mode ? { mode } : {}), items, truncated, attribution: ['© OpenStreetMap contributors'] };
  }
}
