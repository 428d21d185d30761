import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiPropertyOptional, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { QueryBus } from '@nestjs/cqrs';
import { ApiAnswer, InvalidParamError, RequiresTier, type AnswerOf } from '../../../../platform/src/index.js';
import { RetailDensitySchema } from './retail-density.answer.js';
import { RetailDensityQuery } from './retail-density.handler.js';

/** A box spans at most this many degrees each way (~55 km): a city and its surroundings. */
export const MAX_RETAIL_BBOX_DEGREES = 0.5;
export const RETAIL_RESOLUTIONS = { min: 6, max: 9, default: 8 } as const;
const DECIMAL = '-?\\d{1,3}(?:\\.\\d{1,12})?';

export class RetailDensityRequest {
  @ApiPropertyOptional({ description: `The rectangle \`north,south,east,west\` in decimal degrees (north > south, east > west, at most ${MAX_RETAIL_BBOX_DEGREES}° each way)`, example: '5.62,5.52,-0.15,-0.25' })
  @IsString()
  @Matches(new RegExp(`^${DECIMAL},${DECIMAL},${DECIMAL},${DECIMAL}$`), { message: 'bbox must be "north,south,east,west" in decimal degrees' })
  bbox!: string;

  @ApiPropertyOptional({ description: 'H3 resolution of the hexes (6 ≈ 36 km², 7 ≈ 5.2 km², 8 ≈ 0.74 km², 9 ≈ 0.1 km²)', minimum: RETAIL_RESOLUTIONS.min, maximum: RETAIL_RESOLUTIONS.max, default: RETAIL_RESOLUTIONS.default })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(RETAIL_RESOLUTIONS.min)
  @Max(RETAIL_RESOLUTIONS.max)
  resolution?: number;
}


/** interface.md, "Routing, transit, weather, language": GET /v2/analytics/retail-density (Enterprise tier). */
@ApiTags('banking')
@ApiSecurity('api_key')
@Controller('v2/analytics')
export class RetailDensityController {
  constructor(private readonly queries: QueryBus) {}

  @Get('retail-density')
  @RequiresTier('enterprise')
  @ApiOperation({
    summary: 'Retail places per hex in a box: shops, markets, supermarkets, malls, mobile-money agents',
    description:
      'Counts the named places of the imported place datasets by OSM tag: markets `amenity=marketplace`; supermarkets `shop=supermarket|wholesale`; malls `shop=mall|department_store`; ' +
      'mobile_money_agents `amenity=mobile_money_agent`, `shop=mobile_money`, `amenity|shop=money_transfer`; shops every other `shop=*`. Only hexes with at least one place are returned.',
  })
  @ApiAnswer(RetailDensitySchema, { description: '`data` is a RetailDensity: a GeoJSON FeatureCollection, one Polygon feature per hex with at least one place' })
  @ApiResponse({ status: 400, description: `INVALID_PARAM (\`bbox\`: malformed, inverted or over ${MAX_RETAIL_BBOX_DEGREES}° each way; \`resolution\`)` })
  @ApiResponse({ status: 403, description: 'TIER_REQUIRED: the Enterprise tier' })
  @ApiResponse({ status: 503, description: 'DATASET_NOT_LOADED: no place dataset imported yet' })
  density(@Query() query: RetailDensityRequest): Promise<AnswerOf<typeof RetailDensitySchema>> {
    return this.queries.execute(new RetailDensityQuery(parseRetailBbox(query.bbox), query.resolution ?? RETAIL_RESOLUTIONS.default));
  }
}

/** `north,south,east,west` (interface.md's order), bounded. */
export function parseRetailBbox(text: string) {
  const [north, south, east, west] = text.split(',').map(Number);
  if (!(north >= -90 && north <= 90 && south >= -90 && south <= 90)) throw new InvalidParamError('bbox north and south must be latitudes in [-90, 90]', 'bbox');
  if (!(east >= -180 && east <= 180 && west >= -180 && west <= 180)) throw new InvalidParamError('bbox east and west must be longitudes in [-180, 180]', 'bbox');
  if (!(north > south)) throw new InvalidParamError('bbox is north,south,east,west: north must be greater than south', 'bbox');
  if (!(east > west)) throw new InvalidParamError('bbox is north,south,east,west: east must be greater than west (a box across the antimeridian is asked as two)', 'bbox');
  if (north - south > MAX_RETAIL_BBOX_DEGREES || east - west > MAX_RETAIL_BBOX_DEGREES) throw new InvalidParamError(`bbox may span at most ${MAX_RETAIL_BBOX_DEGREES}° each way`, 'bbox');
  return { north, south, east, west };
}
