import { keyOfSlug, type Landmark } from '../domain/landmark.js';
import { LandmarkNotFoundError, type LandmarkReportState } from '../domain/landmark-reports.js';

/** How the report and review commands find the landmark a slug names (the loaded place sets). */
export interface LandmarkLookup {
  bySlugKey(key: string): Landmark | undefined;
}

/** The landmark of a slug, an old slug of a renamed one included (only its key part identifies); 404 otherwise. */
export function landmarkOfSlug(lookup: LandmarkLookup, slug: string): Landmark {
  const key = keyOfSlug(slug);
  const landmark = key === null ? undefined : lookup.bySlugKey(key);
  if (!landmark) throw new LandmarkNotFoundError(slug);
  return landmark;
}

/** What both answers say about the landmark's reports and narration status. */
export function reportSummary(state: LandmarkReportState) {
  return {
    reports: state.reports,
    narration_status: state.narration_status,
    excluded_from_narration: state.narration_status !== 'candidate',
    excluded_at: state.excluded_at,
    reviewed_at: state.reviewed_at,
  };
}
