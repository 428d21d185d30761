import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PlanRouteRequest } from '../route.request.js';

export const GEOMETRIES = ['polyline6', 'polyline', 'geojson'] as const;

/** POST /v2/navigate/route: the body of POST /v2/route, plus the geometry encoding navigation SDKs ask for. */
export class NavigateRouteRequest extends PlanRouteRequest {
  @ApiPropertyOptional({ enum: GEOMETRIES, default: 'polyline6', description: 'Geometry encoding (Mapbox and Ferrostar read polyline6)' })
  @IsOptional()
  @IsIn(GEOMETRIES, { message: 'geometries must be polyline6, polyline or geojson' })
  geometries?: (typeof GEOMETRIES)[number];
}
