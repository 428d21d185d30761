import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { TURN_CLASSES_DOC } from '../../domain/maneuvers.js';
import { PlanRouteAnswerSchema } from './plan-route.answer.js';
import { PlanRouteQuery } from './plan-route.handler.js';
import { alternativesOf, PlanRouteRequest } from '../route.request.js';

/** interface.md: POST /v2/route → route with steps, alternatives and the safer-route flags. */
@ApiTags('routing')
@ApiSecurity('api_key')
@Controller('v2/route')
export class PlanRouteController {
  constructor(private readonly queries: QueryBus) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'A route with turn-by-turn steps',
    description:
      'Routes on the imported road network (the embedded engine, or GraphHopper when GRAPHHOPPER_URL is set) for `mode` driving, motor_scooter (okada), bicycle or walking. ' +
      'Steps carry `instruction`, `name`, `distance_m`, `duration_s`, `coordinates` ([lng, lat]), `bearing_before`, `bearing_after`, `turn_angle` (−180..180, positive right), ' +
      `\`turn_class\` (${TURN_CLASSES_DOC}), \`surface\` (paved, unpaved, unknown) and \`surface_color\`, \`verbal_alert\`, \`verbal_post\`, ` +
      '`traffic_factor`/`traffic_severity`/`traffic_color`/`traffic_source` (neutral: 1, unknown, #9E9E9E, `prior` until the traffic model has a learned figure there, docs/adr/0031), `lanes` (OSRM `{indications, valid}`) only where `turn:lanes` is tagged, ' +
      'and with `narration` landmark or both `instruction_landmark`, `landmark_confidence` (how well documented the landmark is), `alternate_landmarks` and `landmark`. ' +
      'Same-road steps are merged; a roundabout is one step with its exit. The route has `geometry` (GeoJSON LineString) and `polyline` (precision 5), ' +
      '`recommended`, `recommend_reason`, `flood_crossings`, `has_unpaved` (absent when more than 20 % of the length has no known surface), `unpaved_distance_m`, `incident_count`, ' +
      '`warnings`, `rain_note`, `rain_eta_penalty_s`; each of `alternatives[]` (up to 2) carries the same.',
  })
  @ApiAnswer(PlanRouteAnswerSchema, { serialise: true, requestExample: { from: { lat: 5.5496, lng: -0.2058 }, to: { lat: 5.5556, lng: -0.1969 }, mode: 'driving', narration: 'landmark', alternatives: 1 } })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming the field (`mode` for an unknown mode, `from.lat`, `alternatives`, …)' })
  @ApiResponse({ status: 422, description: 'NO_ROAD_NEARBY: a point more than 1 km from any road the mode may use (details: point, mode); NO_ROUTE: no connection for this mode' })
  @ApiResponse({ status: 503, description: 'ROAD_NETWORK_NOT_LOADED: no road network imported yet, or its graph is still being prepared; ROUTING_ENGINE_UNAVAILABLE: the external engine (GRAPHHOPPER_URL) did not answer usefully' })
  route(@Body() request: PlanRouteRequest): Promise<AnswerOf<typeof PlanRouteAnswerSchema>> {
    return this.queries.execute(
      new PlanRouteQuery({
        from: request.from,
        to: request.to,
        via: request.via,
        mode: request.mode,
        narration: request.narration,
        alternatives: alternativesOf(request.alternatives),
        avoid_incidents: request.avoid_incidents,
        depart_at: request.depart_at,
      }),
    );
  }
}
