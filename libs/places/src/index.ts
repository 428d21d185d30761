export * from './domain/place.js';
export { MAX_QUERY_WORDS, MAX_RESULTS, type MatchKind, type SearchQuery, type SearchHit, type SearchResult } from './domain/search-index.js';
export { boundaryFromFeature, polygonContains, type AdminAreas, type Boundary, type AdminNames } from './domain/admin-areas.js';
export { MAX_NEAR_RADIUS_M, type NearbyPlace } from './domain/place-grid.js';
export * from './domain/errors.js';
export * from './public/gazetteer.js';
export * from './places.module.js';
export { importGeoNames, importOsm, importBoundaries, ImportError, BOUNDARIES_DATASET, PLACES, type ImportProgress, type ImportOptions, type ImportResult } from './public/importers.js';
export { type OsmTags } from './domain/osm-tags.js';
export { placesEventTypes } from './event-types.js';
export { isLandmark, landmarkSlug, keyOfSlug, photoUrl, type Landmark } from './landmarks/domain/landmark.js';
export { type LandmarkHit } from './landmarks/domain/landmark-index.js';
export {
  LANDMARK_EVENT_TYPES,
  REPORT_REASONS,
  REVIEW_DECISIONS,
  EXCLUSION_THRESHOLD,
  type LandmarkEvent,
  type NarrationStatus,
  type ReviewDecision,
} from './landmarks/domain/landmark-reports.js';
export { Landmarks } from './landmarks/public/landmarks.js';
export { LANDMARK_REPORTS_READ_MODEL, LANDMARK_REPORT_INDEXES, evolveLandmarkReportDoc, type LandmarkReportDoc } from './landmarks/public/landmark-reports.read-model.js';
export * from './manifest.js';
// What this context brings to the apps (apps/shared/contexts.ts).
export { placesContext } from './context.js';
