import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { MAX_GEOCODE_RADIUS_M } from '../../public/landmarks.js';
import { LandmarkListRequest } from '../landmark-list.request.js';

const DECIMAL = '-?\\d{1,3}(?:\\.\\d{1,12})?';
export const DEFAULT_GEOCODE_RADIUS_M = 5_000;

/** GET /v2/landmarks/geocode: `bbox`, or `near` (with an optional `radius_m`). */
export class GeocodeLandmarksRequest extends LandmarkListRequest {
  @ApiPropertyOptional({
    description: 'The rectangle `north,south,east,west` in decimal degrees (north > south, east > west, at most 1° each way); landmarks whose point lies inside it',
    example: '5.56,5.54,-0.20,-0.22',
  })
  @IsOptional()
  @IsString()
  @Matches(new RegExp(`^${DECIMAL},${DECIMAL},${DECIMAL},${DECIMAL}$`), { message: 'bbox must be "north,south,east,west" in decimal degrees' })
  bbox?: string;

  @ApiPropertyOptional({ description: 'Landmarks nearest this point: `lat,lng` in decimal degrees (instead of bbox)', example: '5.5502,-0.2077' })
  @IsOptional()
  @IsString()
  @Matches(new RegExp(`^${DECIMAL},${DECIMAL}$`), { message: 'near must be "lat,lng" in decimal degrees, e.g. 5.6037,-0.1870' })
  near?: string;

  @ApiPropertyOptional({ description: 'With `near`: how far to look, in metres', minimum: 1, maximum: MAX_GEOCODE_RADIUS_M, default: DEFAULT_GEOCODE_RADIUS_M })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'radius_m must be an integer' })
  @Min(1)
  @Max(MAX_GEOCODE_RADIUS_M)
  radius_m?: number;
}
