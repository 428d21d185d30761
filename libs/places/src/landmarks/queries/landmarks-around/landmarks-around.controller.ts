import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import { listOptions } from '../landmark-list.js';
import { ApiAnswer, type AnswerOf } from '../../../../../platform/src/index.js';
import { LandmarksAroundAnswerSchema } from './landmarks-around.answer.js';
import { LandmarksAroundQuery } from './landmarks-around.handler.js';
import { DEFAULT_AROUND_RADIUS_M, LandmarksAroundRequest } from './landmarks-around.request.js';

/** interface.md, "Addresses, hex codes and search": GET /v2/landmarks/around → landmarks with photo_url. */
@ApiTags('landmarks')
@ApiSecurity('api_key')
@Controller('v2/landmarks/around')
export class LandmarksAroundController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiOperation({
    summary: 'Landmarks near a point',
    description:
      'The landmarks (named amenities, shops, places of worship, schools, fuel stations, markets, banks, hotels, stations, notable buildings…) within `radius_m` of the point, nearest first, ' +
      'with their hex code, contact details where the source has them, `photo_url` only where the source names a photo, and `narration_status` ' +
      '(`candidate`, or `excluded_pending_review` / `excluded` after corroborated wrong-landmark reports or an operator review).',
  })
  @ApiAnswer(LandmarksAroundAnswerSchema)
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming the field (`lat`, `lng`, `radius_m`, `limit`, `has_photo`, `cursor`)' })
  @ApiResponse({ status: 503, description: 'DATASET_NOT_LOADED: no place dataset has been imported yet' })
  around(@Query() request: LandmarksAroundRequest): Promise<AnswerOf<typeof LandmarksAroundAnswerSchema>> {
    return this.queries.execute(new LandmarksAroundQuery(request.lat, request.lng, request.radius_m ?? DEFAULT_AROUND_RADIUS_M, listOptions(request)));
  }
}
