import { Controller, Get, Inject, Query } from '@nestjs/common';
import { CLOCK, type Clock } from '../../../../platform/src/index.js';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { displayHexCode, pointForHexCode } from '../../domain/hexcode.js';
import { cellCentreProvenance } from '../../domain/provenance.js';
import { LookupRequest } from './lookup.request.js';

/** interface.md, "Addresses, hex codes and search"; decisions.md: the centre of the code's H3 cell. */
@ApiTags('addressing')
@ApiSecurity('api_key')
@Controller('v2')
export class LookupController {
  constructor(@Inject(CLOCK) private readonly clock: Clock) {}

  @Get('lookup')
  @ApiOperation({
    summary: 'The point a hex code stands for: the centre of its H3 cell',
    description:
      'Accepts every shape of a code (compact, hyphenated, lower case; I, L, O read as 1, 1, 0). ' +
      '`provenance.source` is `geocoded_text`: the point is computed from the code, `accuracy_meters` is the centre-to-corner distance of the cell, `verified_at` is when this answer decoded it (decoding is exact).',
  })
  @ApiResponse({ status: 200, description: '`{code, display, resolution, cell, lat, lng, provenance}`' })
  @ApiResponse({
    status: 400,
    description: 'INVALID_CODE (field `address`): the message says what is wrong; when only the check character fails it names the likely intended codes',
  })
  lookup(@Query() query: LookupRequest) {
    const point = pointForHexCode(query.address, 'address');
    return {
      code: point.code,
      display: displayHexCode(point.code),
      resolution: point.resolution,
      cell: point.cell,
      lat: point.lat,
      lng: point.lng,
      provenance: cellCentreProvenance(point.cell, this.clock.now(), [point.lat, point.lng]),
    };
  }
}
