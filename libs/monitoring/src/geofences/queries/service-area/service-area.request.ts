import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, IsObject, IsOptional, Max, Min } from 'class-validator';
import {
  SERVICE_AREA_CONTAINMENTS,
  SERVICE_AREA_DEFAULT_RESOLUTION,
  SERVICE_AREA_MAX_RESOLUTION,
  SERVICE_AREA_MIN_RESOLUTION,
  type ServiceAreaContainment,
} from '../../domain/service-area.js';
import { GEOJSON_POLYGON_SCHEMA } from '../../geometry.schemas.js';

/** POST /v2/service-area. */
export class ServiceAreaRequest {
  @ApiProperty({ ...GEOJSON_POLYGON_SCHEMA })
  @IsObject({ message: 'polygon must be a GeoJSON Polygon object' })
  polygon: unknown;

  @ApiPropertyOptional({ minimum: SERVICE_AREA_MIN_RESOLUTION, maximum: SERVICE_AREA_MAX_RESOLUTION, default: SERVICE_AREA_DEFAULT_RESOLUTION, description: 'H3 resolution of the cells (9: cells of about 0.1 km²)' })
  @IsOptional()
  @IsInt({ message: 'resolution must be an integer' })
  @Min(SERVICE_AREA_MIN_RESOLUTION)
  @Max(SERVICE_AREA_MAX_RESOLUTION)
  resolution?: number;

  @ApiPropertyOptional({
    enum: SERVICE_AREA_CONTAINMENTS,
    default: 'overlapping',
    description: 'overlapping: every cell touching the polygon (the cells cover it all); center: cells whose centre is inside; full: cells wholly inside',
  })
  @IsOptional()
  @IsIn(SERVICE_AREA_CONTAINMENTS, { message: `containment must be one of ${SERVICE_AREA_CONTAINMENTS.join(', ')}` })
  containment?: ServiceAreaContainment;

  @ApiPropertyOptional({ default: false, description: 'true: complete groups of seven sibling cells are replaced by their parent, so cells have mixed resolutions' })
  @IsOptional()
  @IsBoolean({ message: 'compact must be true or false' })
  compact?: boolean;
}
