import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { displayHexCode } from '../../../../../addressing/src/index.js';
import { Landmarks, type ListOptions } from '../../public/landmarks.js';
import { listAnswer } from '../landmark-list.js';
import type { AnswerOf } from '../../../../../platform/src/index.js';
import type { HexcodeLandmarksAnswerSchema } from './hexcode-landmarks.answer.js';

export type HexcodeLandmarksAnswer = AnswerOf<typeof HexcodeLandmarksAnswerSchema>;

/** GET /v2/hexcode/{code}/landmarks: `code` in any accepted form. */
export class HexcodeLandmarksQuery extends Query<HexcodeLandmarksAnswer> {
  constructor(
    readonly code: string,
    readonly options: ListOptions,
  ) {
    super();
  }
}

/** The landmarks near an address-sized cell, or inside a larger one, nearest its centre first. */
@QueryHandler(HexcodeLandmarksQuery)
export class HexcodeLandmarksHandler implements IQueryHandler<HexcodeLandmarksQuery> {
  constructor(private readonly landmarks: Landmarks) {}

  async execute({ code, options }: HexcodeLandmarksQuery): Promise<HexcodeLandmarksAnswer> {
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
