import { Controller, Get, Inject, Query } from '@nestjs/common';
import { CLOCK, type Clock } from '../../../../platform/src/index.js';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { codedCellForPoint, DEFAULT_ADDRESS_RESOLUTION, displayHexCode } from '../../domain/hexcode.js';
import { greatCircleMetres } from '../../domain/great-circle.js';
import { callerPointProvenance } from '../../domain/provenance.js';
import { ReverseRequest } from './reverse.request.js';

/** interface.md, "Addresses, hex codes and search"; decisions.md: `data.code` with `data.provenance`. */
@ApiTags('addressing')
@ApiSecurity('api_key')
@Controller('v2')
export class ReverseController {
  constructor(@Inject(CLOCK) private readonly clock: Clock) {}

  @Get('reverse')
  @ApiOperation({
    summary: 'The hex code of the cell holding a point',
    description:
      'Answers the code, its display form, and the centre of its cell (`lat`, `lng`). `distance_m` is how far the given point lies from the centre. ' +
      'The `provenance` describes the point you sent: `source` as you say you got it (`source`, default `device_gps`), `provider: "caller"`, ' +
      '`accuracy_meters` your `accuracy_m` (default: the centre-to-corner distance of the cell), `confidence` 1, `verified_at` when the request arrived.',
  })
  @ApiResponse({ status: 200, description: '`{code, display, resolution, cell, lat, lng, distance_m, provenance}`' })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming `lat`, `lng` or `resolution`' })
  reverse(@Query() query: ReverseRequest) {
    const centre = codedCellForPoint(query.lat, query.lng, query.resolution ?? DEFAULT_ADDRESS_RESOLUTION);
    const point: [number, number] = [centre.lat, centre.lng];
    return {
      code: centre.code,
      display: displayHexCode(centre.code),
      resolution: centre.resolution,
      cell: centre.cell,
      lat: centre.lat,
      lng: centre.lng,
      distance_m: Math.round(greatCircleMetres(query.lat, query.lng, centre.lat, centre.lng) * 10) / 10,
      provenance: callerPointProvenance(query.source ?? 'device_gps', query.accuracy_m, centre.cell, this.clock.now(), point),
    };
  }
}
