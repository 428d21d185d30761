import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { Landmarks, type ListOptions } from '../../public/landmarks.js';
import { listAnswer } from '../landmark-list.js';
import type { AnswerOf } from '../../../../../platform/src/index.js';
import type { LandmarksAroundAnswerSchema } from './landmarks-around.answer.js';

export type LandmarksAroundAnswer = AnswerOf<typeof LandmarksAroundAnswerSchema>;

/** GET /v2/landmarks/around?lat=&lng=[&radius_m=]: a page of the landmarks within the radius. */
export class LandmarksAroundQuery extends Query<LandmarksAroundAnswer> {
  constructor(
    readonly lat: number,
    readonly lng: number,
    readonly radiusM: number,
    readonly options: ListOptions,
  ) {
    super();
  }
}

/** The landmarks within the radius of the point, nearest first. */
@QueryHandler(LandmarksAroundQuery)
export class LandmarksAroundHandler implements IQueryHandler<LandmarksAroundQuery> {
  constructor(private readonly landmarks: Landmarks) {}

  async execute({ lat, lng, radiusM, options }: LandmarksAroundQuery): Promise<LandmarksAroundAnswer> {
    const page = this.landmarks.around(lat, lng, radiusM, options);
    return { lat, lng, radius_m: radiusM, ...listAnswer(this.landmarks, page, options) };
  }
}
