import type { ContextManifest } from '../../platform/src/index.js';
import { placesDatasets } from './datasets.js';
import { placesEventTypes } from './event-types.js';
import { reportLandmark } from './landmarks/commands/report-landmark/report-landmark.handler.js';
import { reviewLandmark } from './landmarks/commands/review-landmark/review-landmark.handler.js';
import { landmarkQueries } from './landmarks/landmarks.providers.js';
import { SearchPlacesQuery } from './queries/search-places/search-places.handler.js';

/** What the places context brings to a process (checked at start-up). */
export const placesManifest: ContextManifest = {
  name: 'places',
  events: placesEventTypes,
  commands: [reportLandmark, reviewLandmark],
  queries: [...landmarkQueries, SearchPlacesQuery],
  readModels: { projections: ['landmark_reports'], views: ['narration_feed'] },
  datasets: placesDatasets,
};
