import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { Latitude, Longitude } from '../../../../../platform/src/index.js';
import { MAX_AROUND_RADIUS_M } from '../../public/landmarks.js';
import { LandmarkListRequest } from '../landmark-list.request.js';

export const DEFAULT_AROUND_RADIUS_M = 500;

/** GET /v2/landmarks/around. */
export class LandmarksAroundRequest extends LandmarkListRequest {
  @Latitude({ query: 'number', example: 5.5502 })
  lat: number;

  @Longitude({ query: 'number', example: -0.2077 })
  lng: number;

  @ApiPropertyOptional({ description: 'Search radius in metres', minimum: 1, maximum: MAX_AROUND_RADIUS_M, default: DEFAULT_AROUND_RADIUS_M })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'radius_m must be an integer' })
  @Min(1)
  @Max(MAX_AROUND_RADIUS_M)
  radius_m?: number;
}
