import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiAnswer, BodyBudget, Public, RawResponse, type AnswerOf } from '../../../../platform/src/index.js';
import { alternativesOf } from '../route.request.js';
import { NavigateRouteAnswerSchema } from './navigate-route.answer.js';
import { NavigateRouteQuery } from './navigate-route.handler.js';
import { NavigateRouteRequest } from './navigate-route.request.js';

/**
 * interface.md: POST /v2/navigate/route (public, the navigation throttle) →
 * a turn-by-turn feed. The answer is the OSRM / Mapbox Directions v5 document
 * itself, outside the envelope, like the other documents standard clients
 * read as they are (decisions.md, "Fixed behaviour"); errors keep the envelope.
 */
@ApiTags('routing')
@Controller('v2/navigate/route')
export class NavigateRouteController {
  constructor(private readonly queries: QueryBus) {}

  // A dozen fields, from, to and at most MAX_VIA_POINTS via points of {lat, lng}: about 45 values (ADR 0034).
  @BodyBudget({ maxBytes: 8192, maxValues: 64, maxDepth: 3 })
  @Post()
  @Public()
  @RawResponse()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Turn-by-turn feed (OSRM / Mapbox Directions v5)',
    description:
      'The route of POST /v2/route as navigation SDKs read it (MapLibre Navigation, Ferrostar, Mapbox): `{code: "Ok", routes: [{distance, duration, weight, geometry, legs: [{steps: [{maneuver: {type, modifier, exit, location, bearing_before, bearing_after, instruction}, ' +
      'intersections, voiceInstructions, bannerInstructions, geometry, name, distance, duration, mode}]}]}], waypoints}`, outside the envelope. Geometry is polyline6 unless `geometries` says otherwise. Throttled per IP (THROTTLE_NAVIGATION_PER_MINUTE).',
  })
  @ApiAnswer(NavigateRouteAnswerSchema, { raw: true, description: 'The Directions v5 document, outside the envelope', requestExample: { from: { lat: 5.5496, lng: -0.2058 }, to: { lat: 5.5512, lng: -0.2031 }, mode: 'driving', geometries: 'polyline6' } })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming the field' })
  @ApiResponse({ status: 422, description: 'NO_ROAD_NEARBY or NO_ROUTE (in the envelope)' })
  @ApiResponse({ status: 429, description: 'RATE_LIMITED: the per-IP navigation throttle (THROTTLE_NAVIGATION_PER_MINUTE); wait Retry-After seconds' })
  @ApiResponse({ status: 503, description: 'ROAD_NETWORK_NOT_LOADED: no road network imported yet; ROUTING_ENGINE_UNAVAILABLE: the external engine did not answer usefully' })
  navigate(@Body() request: NavigateRouteRequest): Promise<AnswerOf<typeof NavigateRouteAnswerSchema>> {
    return this.queries.execute(
      new NavigateRouteQuery(
        {
          from: request.from,
          to: request.to,
          via: request.via,
          mode: request.mode,
          narration: request.narration,
          alternatives: alternativesOf(request.alternatives),
          avoid_incidents: request.avoid_incidents,
          depart_at: request.depart_at,
        },
        request.geometries ?? 'polyline6',
      ),
    );
  }
}
