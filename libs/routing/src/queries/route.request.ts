import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsDefined, IsIn, IsISO8601, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { PointRequest } from './point.request.js';

export const MAX_VIA_POINTS = 8;
export const NARRATIONS = ['street', 'landmark', 'both'] as const;

/** POST /v2/route (interface.md, "Routing, transit, weather, language"); POST /v2/route/navigate extends it, so it lives outside both slices. */
export class PlanRouteRequest {
  @ApiProperty({ type: PointRequest, description: 'Start {lat, lng}' })
  @IsDefined({ message: 'from is required: {lat, lng}' })
  @IsObject({ message: 'from must be an object {lat, lng}' })
  @ValidateNested()
  @Type(() => PointRequest)
  from: PointRequest;

  @ApiProperty({ type: PointRequest, description: 'Destination {lat, lng}' })
  @IsDefined({ message: 'to is required: {lat, lng}' })
  @IsObject({ message: 'to must be an object {lat, lng}' })
  @ValidateNested()
  @Type(() => PointRequest)
  to: PointRequest;

  @ApiPropertyOptional({ type: [PointRequest], maxItems: MAX_VIA_POINTS, description: 'Points to pass, in order' })
  @IsOptional()
  @IsArray({ message: 'via must be an array of {lat, lng}' })
  @ArrayMaxSize(MAX_VIA_POINTS, { message: `via takes at most ${MAX_VIA_POINTS} points` })
  @ValidateNested({ each: true })
  @Type(() => PointRequest)
  via?: PointRequest[];

  @ApiPropertyOptional({ description: 'driving (default; empty also means driving), motor_scooter (alias okada), bicycle, walking', example: 'okada' })
  @IsOptional()
  @IsString({ message: 'mode must be a string' })
  @MaxLength(40, { message: 'mode must be one of driving, motor_scooter (alias okada), bicycle, walking' })
  mode?: string;

  @ApiPropertyOptional({ enum: NARRATIONS, default: 'street', description: 'landmark or both: turns described by landmarks ("Turn left after Kaneshie Market")' })
  @IsOptional()
  @IsIn(NARRATIONS, { message: 'narration must be street, landmark or both' })
  narration?: (typeof NARRATIONS)[number];

  @ApiPropertyOptional({ oneOf: [{ type: 'integer', minimum: 0, maximum: 2 }, { type: 'boolean' }], default: 0, description: 'Alternative routes wanted besides the best (up to 2); also accepts true (2) and false (0)' })
  @IsOptional()
  alternatives?: number | boolean;

  @ApiPropertyOptional({ default: false, description: 'Reroute around corroborated flooding and road_blocked reports (used once hazard reports exist, issue #16; accepted now)' })
  @IsOptional()
  @IsBoolean({ message: 'avoid_incidents must be a boolean' })
  avoid_incidents?: boolean;

  @ApiPropertyOptional({ description: 'ISO 8601 departure time (default now); used by learned traffic (issue #16)', example: '2026-11-23T07:30:00Z' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'depart_at must be an ISO 8601 date-time' })
  depart_at?: string;
}

/** `alternatives` as sent: a count 0–2, or true (2) / false (0); anything else is left for the planner to refuse. */
export function alternativesOf(value: unknown): number {
  if (value === undefined || value === null || value === false) return 0;
  if (value === true) return 2;
  return typeof value === 'number' ? value : NaN;
}
