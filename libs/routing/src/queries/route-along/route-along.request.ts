import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

export const MAX_ALONG_RADIUS_M = 200;
export const DEFAULT_ALONG_RADIUS_M = 50;
export const MAX_ALONG_RESULTS = 200;
export const MAX_POLYLINE_CHARS = 50_000;
/** A route longer than this is refused (a trip across a city or region, not a country: ~1,700 probes at most). */
export const MAX_ALONG_LENGTH_M = 100_000;

/** GET /v2/route/along: `from` and `to` (a route is computed for `mode`), or `polyline`. */
export class RouteAlongRequest {
  @ApiPropertyOptional({ description: 'Start "lat,lng" (with `to`)', example: '5.556,-0.233' })
  @IsOptional()
  @IsString({ message: 'from must be "lat,lng"' })
  from?: string;

  @ApiPropertyOptional({ description: 'Destination "lat,lng" (with `from`)', example: '5.57,-0.18' })
  @IsOptional()
  @IsString({ message: 'to must be "lat,lng"' })
  to?: string;

  @ApiPropertyOptional({ description: 'Travel mode for from/to (as POST /v2/route)', example: 'okada' })
  @IsOptional()
  @IsString({ message: 'mode must be a string' })
  @MaxLength(40)
  mode?: string;

  @ApiPropertyOptional({ description: 'Instead of from/to: an encoded polyline of the route (precision 5, or 6 with precision=6)', maxLength: MAX_POLYLINE_CHARS })
  @IsOptional()
  @IsString({ message: 'polyline must be an encoded polyline string' })
  @MaxLength(MAX_POLYLINE_CHARS, { message: `polyline must be at most ${MAX_POLYLINE_CHARS} characters` })
  polyline?: string;

  @ApiPropertyOptional({ enum: [5, 6], default: 5 })
  @IsOptional()
  @Type(() => Number)
  @IsIn([5, 6], { message: 'precision must be 5 or 6' })
  precision?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_ALONG_RADIUS_M, default: DEFAULT_ALONG_RADIUS_M, description: 'How far from the route line a landmark may stand, in metres' })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'radius_m must be an integer' })
  @Min(1)
  @Max(MAX_ALONG_RADIUS_M)
  radius_m?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_ALONG_RESULTS, default: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be an integer' })
  @Min(1)
  @Max(MAX_ALONG_RESULTS)
  limit?: number;
}
