import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { greatCircleDistance } from 'h3-js';
import { DEFAULT_ADDRESS_RESOLUTION, displayHexCode, hexCodeForPoint, pointForHexCode } from '../../domain/hexcode.js';
import { cellCentreProvenance } from '../../domain/provenance.js';
import { ReverseRequest } from './reverse.request.js';

/** interface.md, "Addresses, hex codes and search"; decisions.md: `data.code` with `data.provenance`. */
@ApiTags('addressing')
@ApiSecurity('api_key')
@Controller('v2')
export class ReverseController {
  @Get('reverse')
  @ApiOperation({
    summary: 'The hex code of the cell holding a point',
    description:
      'Answers the code, its display form, and the centre of its cell (`lat`, `lng`) with the provenance of that centre: ' +
      '`geocoded_text` (computed from the code), `accuracy_meters` the centre-to-corner distance of the cell. `distance_m` is how far the given point lies from the centre.',
  })
  @ApiResponse({ status: 200, description: '`{code, display, resolution, cell, lat, lng, distance_m, provenance}`' })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming `lat`, `lng` or `resolution`' })
  reverse(@Query() query: ReverseRequest) {
    const code = hexCodeForPoint(query.lat, query.lng, query.resolution ?? DEFAULT_ADDRESS_RESOLUTION);
    const centre = pointForHexCode(code);
    return {
      code,
      display: displayHexCode(code),
      resolution: centre.resolution,
      cell: centre.cell,
      lat: centre.lat,
      lng: centre.lng,
      distance_m: Math.round(greatCircleDistance([query.lat, query.lng], [centre.lat, centre.lng], 'm') * 10) / 10,
      provenance: cellCentreProvenance(centre.cell),
    };
  }
}
