import type { IndexSpec } from '../../../../platform/src/index.js';
import {
  evolveLandmarkReports,
  initialLandmarkReportState,
  type LandmarkEvent,
  type LandmarkReportState,
  type NarrationStatus,
  type ReportReason,
  type ReviewDecision,
} from '../domain/landmark-reports.js';

/** The `landmark_reports` read model: one document per reported or reviewed landmark (projections/landmark-reports). */
export const LANDMARK_REPORTS_READ_MODEL = { name: 'landmark_reports', version: 1 } as const;
export const LANDMARK_REPORT_INDEXES: IndexSpec[] = [
  /** The review queue (`excluded_pending_review`), and what the narration feed loads at start (every status but `candidate`). */
  { name: 'by_status', fields: ['narration_status', 'last_reported_at'] },
];

export interface LandmarkReportDoc {
  [field: string]: unknown;
  /** The landmark key (the hash part of the slug). */
  id: string;
  slug: string;
  reports: Record<ReportReason, number>;
  narration_status: NarrationStatus;
  last_reported_at: string | null;
  excluded_at: string | null;
  reviewed_at: string | null;
  review_decision: ReviewDecision | null;
}

/** The document after one more event; the corroboration window lives in the stream, not here. */
export function evolveLandmarkReportDoc(current: LandmarkReportDoc | undefined, key: string, event: LandmarkEvent): LandmarkReportDoc {
  const state: LandmarkReportState = current ? { ...current, open: [] } : initialLandmarkReportState;
  const next = evolveLandmarkReports(state, event);
  return reportDoc(key, event.data.slug, next);
}

export function reportDoc(key: string, slug: string, state: LandmarkReportState): LandmarkReportDoc {
  const { reports, narration_status, last_reported_at, excluded_at, reviewed_at, review_decision } = state;
  return { id: key, slug, reports: { ...reports }, narration_status, last_reported_at, excluded_at, reviewed_at, review_decision };
}
