import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { Latitude, Longitude } from '../../../../platform/src/index.js';
import { DEFAULT_TOLERANCE_HOPS, DEFAULT_ZONE_RESOLUTION, MAX_TOLERANCE_HOPS, MIN_ZONE_RESOLUTION } from '../../domain/location.js';

/** decisions.md: the registered zone is `{lat, lng}` or `{home_hex}`, plus `tolerance_hops`. */
export class RegisterZoneRequest {
  @Latitude({ optional: true, description: 'Centre of the zone (with lng), instead of home_hex', example: 5.6037 })
  lat?: number;

  @Longitude({ optional: true, description: 'Centre of the zone (with lat)', example: -0.187 })
  lng?: number;

  @ApiPropertyOptional({ description: `H3 resolution of the zone's grid when given as lat/lng (default ${DEFAULT_ZONE_RESOLUTION}, cells ≈ 174 m across); ignored with home_hex, whose own resolution is the grid`, minimum: MIN_ZONE_RESOLUTION, maximum: 15 })
  @IsOptional()
  @IsInt({ message: 'resolution must be an integer' })
  @Min(MIN_ZONE_RESOLUTION)
  @Max(15)
  resolution?: number;

  @ApiPropertyOptional({ description: `The zone's home cell as a hex code (resolution ${MIN_ZONE_RESOLUTION}-15); drift is counted in hops of its resolution`, example: '7G2-K4MQ' })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  home_hex?: string;

  @ApiPropertyOptional({ description: `Hops from the home cell still inside the zone (default ${DEFAULT_TOLERANCE_HOPS})`, minimum: 0, maximum: MAX_TOLERANCE_HOPS })
  @IsOptional()
  @IsInt({ message: 'tolerance_hops must be an integer' })
  @Min(0)
  @Max(MAX_TOLERANCE_HOPS)
  tolerance_hops?: number;
}
