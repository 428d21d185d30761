import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CLOCK, Public, type Clock } from '../../../../platform/src/index.js';
import { alertFeature } from '../../alerts/alert-book.js';
import { WeatherAlerts } from '../../alerts/alert-log.js';
import { parseBox } from '../../forecast/precipitation-forecast.js';
import { WeatherAreaRequest } from './get-alerts.request.js';

/** interface.md: GET /v2/weather/alerts, public (the per-IP public ceiling applies). */
@ApiTags('weather')
@Controller('v2/weather')
export class GetAlertsController {
  constructor(
    private readonly alerts: WeatherAlerts,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('alerts')
  @Public()
  @ApiOperation({
    summary: 'Active CAP weather alerts',
    description:
      'Active CAP 1.2 alerts (imported with `ops weather:import` or polled from WEATHER_CAP_FEEDS) as a GeoJSON FeatureCollection in `data`: ' +
      'each feature a MultiPolygon of its areas (circles as 32-point polygons) with `event`, `severity`, `urgency`, `certainty`, `headline`, `instruction`, `expires`, ' +
      '`sender`, `sent`, `effective`, `areas` and `signature` (unsigned, valid, unverifiable). Expired, cancelled and superseded alerts are left out. ' +
      'Optional `lat`+`lng` (alerts whose area contains the point) or `bbox` (alerts whose area meets the box), and `at` (active at that moment instead of now).',
  })
  @ApiResponse({ status: 200, description: '`{type: "FeatureCollection", features}`' })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming `lat`, `lng` or `bbox`' })
  list(@Query() request: WeatherAreaRequest) {
    const at = request.at !== undefined ? new Date(request.at) : this.clock.now();
    const box = request.bbox !== undefined ? parseBox(request.bbox, undefined, undefined) : null;
    if (!box) parseBox(undefined, request.lat, request.lng); // both or neither
    const point = request.lat !== undefined && request.lng !== undefined ? ([request.lng, request.lat] as [number, number]) : undefined;
    const alerts = this.alerts.active(at, box ? { bbox: box } : point ? { point } : {});
    return { type: 'FeatureCollection' as const, features: alerts.map(alertFeature) };
  }
}
