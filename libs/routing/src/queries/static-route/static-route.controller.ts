import { Controller, Get, Query, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public, RawResponse } from '../../../../platform/src/index.js';
import { StaticRouteQuery } from './static-route.handler.js';
import { StaticRouteRequest } from './static-route.request.js';

/** interface.md: GET /v2/route/static (public, 15 a minute per IP) → a fixed 800×500 PNG. */
@ApiTags('routing')
@Controller('v2/route/static')
export class StaticRouteController {
  constructor(private readonly queries: QueryBus) {}

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
  @ApiResponse({ status: 429, description: 'RATE_LIMITED: more than 15 images a minute from this IP; wait Retry-After seconds' })
  @ApiResponse({ status: 503, description: 'ROAD_NETWORK_NOT_LOADED: no road network imported yet; ROUTING_ENGINE_UNAVAILABLE: the external engine did not answer usefully' })
  async image(@Query() request: StaticRouteRequest, @Res() reply: FastifyReply): Promise<void> {
    const png = await this.queries.execute(new StaticRouteQuery(request.from, request.to, request.mode));
    await reply.header('content-type', 'image/png').header('cache-control', 'public, max-age=300').send(png);
  }
}
