import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { displayHexCode } from '../../../../../addressing/src/index.js';
import { Landmarks } from '../../landmarks.js';
import { LandmarkListRequest } from '../landmark-list.request.js';
import { listAnswer, listOptions } from '../landmark-list.js';

/** interface.md, "Addresses, hex codes and search": GET /v2/hexcode/{code}/landmarks → landmarks with photo_url. */
@ApiTags('landmarks')
@ApiSecurity('api_key')
@Controller('v2/hexcode/:code/landmarks')
export class HexcodeLandmarksController {
  constructor(private readonly landmarks: Landmarks) {}

  @Get()
  @ApiParam({ name: 'code', description: 'A hex code in any accepted form (compact, hyphenated, lower case)' })
  @ApiOperation({
    summary: 'Landmarks of a hex code',
    description:
      'For an address-sized code (cells smaller than 250 m from centre to corner: resolution 10 and finer, the default address resolution included), the landmarks within 250 m of the cell centre (`scope: "nearby"`); ' +
      'for a larger cell (resolution 6 to 9), the landmarks inside the cell (`scope: "cell"`). Nearest the centre first. Resolution 5 and coarser: 400.',
  })
  @ApiResponse({ status: 200, description: '`{code, display, resolution, lat, lng, scope, radius_m, items: [landmark as in /v2/landmarks/around], next_cursor, attribution}`' })
  @ApiResponse({ status: 400, description: 'INVALID_CODE (with suggestions) for a mistyped code; INVALID_PARAM for a cell too large, `limit`, `has_photo`, `cursor`' })
  @ApiResponse({ status: 503, description: 'DATASET_NOT_LOADED: no place dataset has been imported yet' })
  list(@Param('code') code: string, @Query() request: LandmarkListRequest) {
    const options = listOptions(request);
    const found = this.landmarks.forHexCode(code, options);
    const { centre } = found;
    return {
      code: centre.code,
      display: displayHexCode(centre.code),
      resolution: centre.resolution,
      lat: centre.lat,
      lng: centre.lng,
      scope: found.scope,
      radius_m: found.radius_m,
      ...listAnswer(this.landmarks, found, options),
    };
  }
}
