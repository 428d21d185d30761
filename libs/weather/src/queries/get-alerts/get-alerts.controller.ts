import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiAnswer, Public, type AnswerOf } from '../../../../platform/src/index.js';
import { GetAlertsAnswerSchema } from './get-alerts.answer.js';
import { GetAlertsQuery } from './get-alerts.handler.js';
import { WeatherAreaRequest } from '../weather-area.request.js';

/** interface.md: GET /v2/weather/alerts, public (the per-IP public ceiling applies). */
@ApiTags('weather')
@Controller('v2/weather')
export class GetAlertsController {
  constructor(private readonly queries: QueryBus) {}

  @Get('alerts')
  @Public()
  @ApiOperation({
    summary: 'Active CAP weather alerts',
    description:
      'Active CAP 1.2 alerts (imported with `ops weather:import` or polled from WEATHER_CAP_FEEDS) as a GeoJSON FeatureCollection in `data`: ' +
      'each feature a MultiPolygon of its areas (circles as 32-point polygons) with `event`, `severity`, `urgency`, `certainty`, `headline`, `instruction`, `expires`, ' +
      '`sender`, `sent`, `effective`, `areas` and `signature` (unsigned, valid, unverifiable). Expired, cancelled and superseded alerts are left out. ' +
      'Optional `lat`+`lng` (alerts whose area contains the point) or `bbox` (north,south,east,west; alerts whose area meets the box), and `at` (active at that moment instead of now). ' +
      '`configured` is false when no CAP feed is polled (WEATHER_CAP_FEEDS unset): an empty list then does not mean "no alerts", and `note` says so. ' +
      '`feeds` lists the polled feeds (origin and path) with `last_attempt_at`, `last_success_at` and `last_error`; `imported` says whether any alert was ever recorded.',
  })
  @ApiAnswer(GetAlertsAnswerSchema)
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming `lat`, `lng`, `bbox` or `at`' })
  @ApiResponse({ status: 429, description: 'RATE_LIMITED: the per-IP ceiling on requests without a key; wait Retry-After seconds' })
  list(@Query() request: WeatherAreaRequest): Promise<AnswerOf<typeof GetAlertsAnswerSchema>> {
    const { lat, lng, bbox, at } = request;
    return this.queries.execute(new GetAlertsQuery({ lat, lng, bbox, at }));
  }
}
