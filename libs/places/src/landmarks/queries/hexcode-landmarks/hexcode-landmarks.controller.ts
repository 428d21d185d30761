import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import { LandmarkListRequest } from '../landmark-list.request.js';
import { listOptions } from '../landmark-list.js';
import { ApiAnswer, type AnswerOf } from '../../../../../platform/src/index.js';
import { HexcodeLandmarksAnswerSchema } from './hexcode-landmarks.answer.js';
import { HexcodeLandmarksQuery } from './hexcode-landmarks.handler.js';

/** interface.md, "Addresses, hex codes and search": GET /v2/hexcode/{code}/landmarks → landmarks with photo_url. */
@ApiTags('landmarks')
@ApiSecurity('api_key')
@Controller('v2/hexcode/:code/landmarks')
export class HexcodeLandmarksController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiParam({ name: 'code', description: 'A hex code in any accepted form (compact, hyphenated, lower case)' })
  @ApiOperation({
    summary: 'Landmarks of a hex code',
    description:
      'For an address-sized code (cells smaller than 250 m from centre to corner: resolution 10 and finer, the default address resolution included), the landmarks within 250 m of the cell centre (`scope: "nearby"`); ' +
      'for a larger cell (resolution 6 to 9), the landmarks inside the cell (`scope: "cell"`). Nearest the centre first. Resolution 5 and coarser: 400.',
  })
  @ApiAnswer(HexcodeLandmarksAnswerSchema)
  @ApiResponse({ status: 400, description: 'INVALID_CODE (with suggestions) for a mistyped code; INVALID_PARAM for a cell too large, `limit`, `has_photo`, `cursor`' })
  @ApiResponse({ status: 503, description: 'DATASET_NOT_LOADED: no place dataset has been imported yet' })
  list(@Param('code') code: string, @Query() request: LandmarkListRequest): Promise<AnswerOf<typeof HexcodeLandmarksAnswerSchema>> {
    return this.queries.execute(new HexcodeLandmarksQuery(code, listOptions(request)));
  }
}
