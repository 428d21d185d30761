import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsISO8601, IsOptional, IsString, MaxLength } from 'class-validator';
import { Latitude, Longitude } from '../../../platform/src/index.js';

/** GET /v2/weather/alerts and GET /v2/precipitation-forecast: an optional point or box (shared by both slices, so in neither). */
export class WeatherAreaRequest {
  @Latitude({ optional: true, query: 'number', example: 6.1319 })
  lat?: number;

  @Longitude({ optional: true, query: 'number', example: 1.2228 })
  lng?: number;

  @ApiPropertyOptional({
    description:
      'north,south,east,west in decimal degrees, as every bbox of this API. The former minLng,minLat,maxLng,maxLat is deprecated: it is still read when the box cannot be read as north,south,east,west, and the answer then carries `warnings`',
    example: '11.2,6,1.8,0.5',
  })
  @IsOptional()
  @IsString()
  @MaxLength(120, { message: 'bbox must be north,south,east,west' })
  bbox?: string;

  @ApiPropertyOptional({ description: 'GET /v2/weather/alerts only: the alerts active at this moment (ISO 8601; default now)', example: '2024-06-06T18:00:00Z' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'at must be an ISO 8601 date-time' })
  at?: string;
}
