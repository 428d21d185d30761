import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiAnswer, Public, type AnswerOf } from '../../../../platform/src/index.js';
import { GetPrecipitationForecastAnswerSchema } from './get-precipitation-forecast.answer.js';
import { FORECAST_GRID, FORECAST_HOURS, MAX_FORECAST_BOX_DEG } from '../../forecast/precipitation-forecast.js';
import { WeatherAreaRequest } from '../weather-area.request.js';
import { GetPrecipitationForecastQuery } from './get-precipitation-forecast.handler.js';

/** interface.md: GET /v2/precipitation-forecast, public. */
@ApiTags('weather')
@Controller('v2/precipitation-forecast')
export class GetPrecipitationForecastController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @Public()
  @ApiOperation({
    summary: 'Precipitation forecast for the next 6 hours',
    description:
      `A GeoJSON point cloud in \`data\`: a ${FORECAST_GRID}×${FORECAST_GRID} lattice over \`bbox\` (north,south,east,west as every bbox of the API; the former minLng,minLat,maxLng,maxLat is deprecated, still read when the box cannot be read the other way, and then named in \`warnings\`; at most ${MAX_FORECAST_BOX_DEG}° each way), ` +
      `or ±0.1° around \`lat\`+\`lng\`, or Greater Accra by default; each point has \`max_probability_pct\` (highest hourly chance of rain over the next ${FORECAST_HOURS} hours) ` +
      'and `expected_mm` (the hourly amounts summed), ordered by probability, highest first. From the provider at PRECIPITATION_FORECAST_URL (the Open-Meteo API shape).',
  })
  @ApiAnswer(GetPrecipitationForecastAnswerSchema)
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming `lat`, `lng` or `bbox`' })
  @ApiResponse({ status: 429, description: 'RATE_LIMITED: the per-IP ceiling on requests without a key; wait Retry-After seconds' })
  @ApiResponse({ status: 503, description: 'FORECAST_NOT_CONFIGURED (no PRECIPITATION_FORECAST_URL) or FORECAST_UNAVAILABLE (the provider failed)' })
  forecast(@Query() request: WeatherAreaRequest): Promise<AnswerOf<typeof GetPrecipitationForecastAnswerSchema>> {
    return this.queries.execute(new GetPrecipitationForecastQuery(request.bbox, request.lat, request.lng));
  }
}
