import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsNumber, IsOptional, Max, Min } from 'class-validator';
import { MAX_AROUND_RADIUS_M } from '../../public/landmarks.js';
import { LandmarkListRequest } from '../landmark-list.request.js';

export const DEFAULT_AROUND_RADIUS_M = 500;

/** GET /v2/landmarks/around. */
export class LandmarksAroundRequest extends LandmarkListRequest {
  @ApiProperty({ minimum: -90, maximum: 90, example: 5.5502 })
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'lat must be a number' })
  @Min(-90)
  @Max(90)
  lat: number;

  @ApiProperty({ minimum: -180, maximum: 180, example: -0.2077 })
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'lng must be a number' })
  @Min(-180)
  @Max(180)
  lng: number;

  @ApiPropertyOptional({ description: 'Search radius in metres', minimum: 1, maximum: MAX_AROUND_RADIUS_M, default: DEFAULT_AROUND_RADIUS_M })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'radius_m must be an integer' })
  @Min(1)
  @Max(MAX_AROUND_RADIUS_M)
  radius_m?: number;
}
