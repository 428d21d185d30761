import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { Latitude, Longitude } from '../../../../platform/src/index.js';

export const DEFAULT_DEPARTURES_RADIUS_M = 300;
export const MAX_DEPARTURES_RADIUS_M = 1000;

/** GET /v2/transit/departures. */
export class GetDeparturesRequest {
  @Latitude({ query: 'number', example: 5.5502 })
  lat: number;

  @Longitude({ query: 'number', example: -0.2174 })
  lng: number;

  @ApiPropertyOptional({ description: 'Stops within this many metres (straight line) of the point', minimum: 1, maximum: MAX_DEPARTURES_RADIUS_M, default: DEFAULT_DEPARTURES_RADIUS_M })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'radius_m must be a whole number of metres' })
  @Min(1)
  @Max(MAX_DEPARTURES_RADIUS_M)
  radius_m?: number;

  @ApiPropertyOptional({ description: "Day, YYYY-MM-DD in the feed's time zone (default: today there)", example: '2026-11-23' })
  @IsOptional()
  @IsString()
  @MaxLength(10, { message: 'date must be a calendar date YYYY-MM-DD' })
  date?: string;

  @ApiPropertyOptional({ description: 'From this clock time, HH:MM[:SS] (default: now)', example: '07:30' })
  @IsOptional()
  @IsString()
  @MaxLength(8, { message: 'time must be a clock time HH:MM or HH:MM:SS' })
  time?: string;
}
