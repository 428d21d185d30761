import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { Rectangle } from '../../domain/landmark-index.js';
import { Landmarks, type ListOptions } from '../../public/landmarks.js';
import { listAnswer } from '../landmark-list.js';
import type { AnswerOf } from '../../../../../platform/src/index.js';
import type { GeocodeLandmarksAnswerSchema } from './geocode-landmarks.answer.js';

/** Where to look: inside a rectangle, or within a radius of a point. */
export type GeocodeArea = { bbox: Rectangle } | { near: { lat: number; lng: number }; radius_m: number };

export type GeocodeLandmarksAnswer = AnswerOf<typeof GeocodeLandmarksAnswerSchema>;

/** GET /v2/landmarks/geocode?bbox= or ?near=[&radius_m=]. */
export class GeocodeLandmarksQuery extends Query<GeocodeLandmarksAnswer> {
  constructor(
    readonly area: GeocodeArea,
    readonly options: ListOptions,
  ) {
    super();
  }
}

/** A page of the landmarks in the area, nearest its centre first, each with the provenance of its point. */
@QueryHandler(GeocodeLandmarksQuery)
export class GeocodeLandmarksHandler implements IQueryHandler<GeocodeLandmarksQuery> {
  constructor(private readonly landmarks: Landmarks) {}

  async execute({ area, options }: GeocodeLandmarksQuery): Promise<GeocodeLandmarksAnswer> {
    const view = (hit: Parameters<Landmarks['view']>[0]) => this.landmarks.view(hit, { provenance: true });
    if ('bbox' in area) return { bbox: area.bbox, ...listAnswer(this.landmarks, this.landmarks.inBox(area.bbox, options), options, view) };
    const { near, radius_m } = area;
    return { near, radius_m, ...listAnswer(this.landmarks, this.landmarks.around(near.lat, near.lng, radius_m, options), options, view) };
  }
}
