import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public, RawResponse } from '../../../../platform/src/index.js';
import { RoadNetwork } from '../../road-network.js';
import { RoutePlanner } from '../../route-planner.js';
import { renderStaticMap } from '../../routes/static-map.js';
import { parseLatLngParam } from '../point.query.js';
import { StaticRouteRequest } from './static-route.request.js';

/** interface.md: GET /v2/route/static (public, 15 a minute per IP) → a fixed 800×500 PNG. */
@ApiTags('routing')
@Controller('v2/route/static')
export class StaticRouteController {
  constructor(
    private readonly planner: RoutePlanner,
    private readonly network: RoadNetwork,
  ) {}

  @Get()
  @Public()
  @RawResponse()
  @ApiProduces('image/png')
  @ApiOperation({
    summary: 'Static image of a route',
    description: 'An 800×500 PNG of the route (blue) over the road network around it, with start (green) and end (red) markers and "© OpenStreetMap contributors". Throttled to 15 a minute per client IP.',
  })
  @ApiResponse({ status: 200, description: 'image/png, 800×500', content: { 'image/png': { schema: { type: 'string', format: 'binary' } } } })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming `from`, `to` or `mode` (in the envelope)' })
  @ApiResponse({ status: 422, description: 'NO_ROAD_NEARBY or NO_ROUTE (in the envelope)' })
  async image(@Query() request: StaticRouteRequest, @Res() reply: FastifyReply): Promise<void> {
    const from = parseLatLngParam(request.from, 'from');
    const to = parseLatLngParam(request.to, 'to');
    const plan = await this.planner.plan({ from, to, mode: request.mode });
    const png = await renderStaticMap(this.network.current(), plan.route.geometry.coordinates);
    await reply.header('content-type', 'image/png').header('cache-control', 'public, max-age=300').send(png);
  }
}
