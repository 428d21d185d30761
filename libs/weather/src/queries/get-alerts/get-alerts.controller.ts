import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '../../../../platform/src/index.js';
import { GetAlertsQuery, type AlertCollection } from './get-alerts.handler.js';
import { WeatherAreaRequest } from './get-alerts.request.js';

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
  @ApiResponse({ status: 200, description: '`{type: "FeatureCollection", features, configured, feeds, imported, note?, warnings?}`' })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming `lat`, `lng` or `bbox`' })
  list(@Query() request: WeatherAreaRequest): Promise<AlertCollection> {
    const { lat, lng, bbox, at } = request;
    return this.queries.execute(new GetAlertsQuery({ lat, lng, bbox, at }));
  }
}
