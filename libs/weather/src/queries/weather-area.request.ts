import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsISO8601, IsNumber, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

/** GET /v2/weather/alerts and GET /v2/precipitation-forecast: an optional point or box (shared by both slices, so in neither). */
export class WeatherAreaRequest {
  @ApiPropertyOptional({ minimum: -90, maximum: 90, example: 6.1319 })
  @IsOptional()
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'lat must be a number' })
  @Min(-90)
  @Max(90)
  lat?: number;

  @ApiPropertyOptional({ minimum: -180, maximum: 180, example: 1.2228 })
  @IsOptional()
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'lng must be a number' })
  @Min(-180)
  @Max(180)
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
