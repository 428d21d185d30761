import type { LandmarkHit } from '../domain/landmark-index.js';
import { decodeLandmarkCursor, encodeLandmarkCursor, Landmarks, MAX_LANDMARK_RESULTS, type LandmarkPage, type ListOptions } from '../public/landmarks.js';
import { DEFAULT_LANDMARK_LIMIT, type LandmarkListRequest } from './landmark-list.request.js';

export function listOptions(request: LandmarkListRequest): ListOptions {
  const offset = decodeLandmarkCursor(request.cursor);
  const limit = Math.min(request.limit ?? DEFAULT_LANDMARK_LIMIT, MAX_LANDMARK_RESULTS - offset);
  return { offset, limit, hasPhoto: request.has_photo === 'true' };
}

/** A landmark as the list answers give it (with `provenance` where asked for). */
export type LandmarkItem = ReturnType<Landmarks['view']>;

export interface LandmarkListAnswer {
  items: LandmarkItem[];
  next_cursor: string | null;
  attribution: string[];
}

/** `items`, `next_cursor` (null on the last page or at MAX_LANDMARK_RESULTS) and the attribution the sources require. */
export function listAnswer(landmarks: Landmarks, page: LandmarkPage, options: ListOptions, view: (hit: LandmarkHit) => LandmarkItem = (hit) => landmarks.view(hit)): LandmarkListAnswer {
  const next = options.offset + page.hits.length;
  return {
    items: page.hits.map(view),
    next_cursor: page.more && next < MAX_LANDMARK_RESULTS ? encodeLandmarkCursor(next) : null,
    attribution: Landmarks.attribution(page.hits),
  };
}
