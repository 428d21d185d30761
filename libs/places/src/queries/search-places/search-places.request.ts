import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';
import { Latitude, Longitude } from '../../../../platform/src/index.js';

export const MAX_QUERY_LENGTH = 200;
export const MAX_LIMIT = 50;
const DECIMAL = '-?\\d{1,3}(?:\\.\\d{1,12})?';

/** GET /v2/search. */
export class SearchPlacesRequest {
  @ApiProperty({ description: 'What to look for: a place name, an alternate or partial name; the last word also matches as a prefix', minLength: 1, maxLength: MAX_QUERY_LENGTH, example: 'Madina' })
  @IsString()
  @Length(1, MAX_QUERY_LENGTH)
  q: string;

  @ApiPropertyOptional({ description: 'Rank places near this point higher: `lat,lng` in decimal degrees', example: '5.6037,-0.1870' })
  @IsOptional()
  @IsString()
  @Matches(new RegExp(`^${DECIMAL},${DECIMAL}$`), { message: 'near must be "lat,lng" in decimal degrees, e.g. 5.6037,-0.1870' })
  near?: string;

  @Latitude({ optional: true, query: 'number', description: 'Same as `near`, as the separate lat and lng parameters (give both, and not with `near`)' })
  lat?: number;

  @Longitude({ optional: true, query: 'number' })
  lng?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_LIMIT, default: 10 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_LIMIT)
  limit?: number;

  @ApiPropertyOptional({ description: 'next_cursor of the previous page' })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  cursor?: string;
}
