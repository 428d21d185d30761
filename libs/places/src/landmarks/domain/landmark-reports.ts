import type { Decider } from '../../../../platform/src/commands/decider.js';
import { DomainError } from '../../../../platform/src/errors.js';
import { ReporterGroups } from '../../../../platform/src/ids/reporters.js';

/**
 * What people report about a landmark (interface.md, "Addresses, hex codes and
 * search": POST /v2/landmarks/{slug}/report; "States and transitions": a
 * landmark with enough corroborated wrong-landmark reports is excluded from
 * narration candidates until reviewed). Unlike the reference data, reports and
 * reviews are events, one stream per landmark key.
 */
export const REPORT_REASONS = ['wrong_landmark', 'wrong_side', 'landmark_gone', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
export const REVIEW_DECISIONS = ['keep', 'exclude'] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

/** Distinct reporters of `wrong_landmark` within the window that exclude a landmark from narration. */
export const EXCLUSION_THRESHOLD = 3;
export const CORROBORATION_WINDOW_MS = 30 * 24 * 3600 * 1000;
export const MAX_NOTE_LENGTH = 500;

/**
 * `candidate`: narration may use it. `excluded_pending_review`: corroborated
 * wrong-landmark reports took it out until an operator looks. `excluded`: an
 * operator took it out.
 */
export type NarrationStatus = 'candidate' | 'excluded_pending_review' | 'excluded';

export interface LandmarkReported {
  type: 'LandmarkReported';
  data: {
    landmark: string;
    slug: string;
    reason: ReportReason;
    note?: string;
    /** A keyed hash of the client IP: the same IP gives the same reporter, and the IP cannot be recovered (docs/adr/0013). */
    reporter: string;
    /** The account of the API key sent with the report, when one was sent and is valid. */
    account_id: string | null;
    reported_at: string;
  };
}
export interface LandmarkExcludedFromNarration {
  type: 'LandmarkExcludedFromNarration';
  data: { landmark: string; slug: string; reporters: number; excluded_at: string };
}
export interface LandmarkReviewed {
  type: 'LandmarkReviewed';
  data: { landmark: string; slug: string; decision: ReviewDecision; reviewed_by: string; reviewed_at: string };
}
export type LandmarkEvent = LandmarkReported | LandmarkExcludedFromNarration | LandmarkReviewed;
export const LANDMARK_EVENT_TYPES = ['LandmarkReported', 'LandmarkExcludedFromNarration', 'LandmarkReviewed'] as const satisfies readonly LandmarkEvent['type'][];

interface OpenReport {
  reason: ReportReason;
  reporter: string;
  account_id: string | null;
  at: number;
}

export interface LandmarkReportState {
  /** Every report ever recorded, per reason. */
  reports: Record<ReportReason, number>;
  /** Reports since the last review: what corroboration counts (older than the window are dropped as reports arrive). */
  open: OpenReport[];
  narration_status: NarrationStatus;
  last_reported_at: string | null;
  excluded_at: string | null;
  reviewed_at: string | null;
  review_decision: ReviewDecision | null;
}

export const initialLandmarkReportState: LandmarkReportState = {
  reports: { wrong_landmark: 0, wrong_side: 0, landmark_gone: 0, other: 0 },
  open: [],
  narration_status: 'candidate',
  last_reported_at: null,
  excluded_at: null,
  reviewed_at: null,
  review_decision: null,
};

/** `landmark-<key>`: one stream per landmark; the category has no dash. */
export function landmarkStream(key: string): string {
  return `landmark-${key}`;
}

export function evolveLandmarkReports(state: LandmarkReportState, event: LandmarkEvent): LandmarkReportState {
  switch (event.type) {
    case 'LandmarkReported': {
      const { reason, reporter, account_id, reported_at } = event.data;
      const at = Date.parse(reported_at);
      const open = [...state.open.filter((report) => report.at > at - CORROBORATION_WINDOW_MS), { reason, reporter, account_id, at }];
      return { ...state, reports: { ...state.reports, [reason]: state.reports[reason] + 1 }, open, last_reported_at: reported_at };
    }
    case 'LandmarkExcludedFromNarration':
      return { ...state, narration_status: 'excluded_pending_review', excluded_at: event.data.excluded_at };
    case 'LandmarkReviewed':
      // A review settles the reports before it: only new ones can take a kept landmark out again.
      return {
        ...state,
        open: [],
        narration_status: event.data.decision === 'keep' ? 'candidate' : 'excluded',
        excluded_at: event.data.decision === 'keep' ? null : state.excluded_at ?? event.data.reviewed_at,
        reviewed_at: event.data.reviewed_at,
        review_decision: event.data.decision,
      };
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

/**
 * How many different people back a reason within the window: reports that
 * share an IP or an account are one reporter, transitively (ReporterGroups,
 * ADR 0034), so one account from many networks, many accounts from one
 * network, or one client with and without its key is still one reporter.
 */
export function corroboration(state: LandmarkReportState, reason: ReportReason, now: Date): number {
  const since = now.getTime() - CORROBORATION_WINDOW_MS;
  const reporters = new ReporterGroups();
  for (const report of state.open) {
    if (report.reason !== reason || report.at <= since) continue;
    reporters.add(report.account_id === null ? [report.reporter] : [report.reporter, `account:${report.account_id}`]);
  }
  return reporters.count;
}

export type ReportLandmark = { type: 'ReportLandmark'; landmark: string; slug: string; reason: ReportReason; note?: string; reporter: string; account_id: string | null };
export type ReviewLandmark = { type: 'ReviewLandmark'; landmark: string; slug: string; decision: ReviewDecision; reviewed_by: string };
export type LandmarkReportCommand = ReportLandmark | ReviewLandmark;

/**
 * A report is recorded unless the same reporter (IP or account) already made
 * one with the same reason within the window since the last review: repeating
 * it neither corroborates nor grows the stream. The report that brings
 * `wrong_landmark` to EXCLUSION_THRESHOLD distinct reporters excludes a
 * candidate at once. A review is always accepted; `keep` restores a candidate
 * and starts the count afresh, `exclude` takes it out for good (until a later
 * `keep`).
 */
export function decideLandmarkReports(command: LandmarkReportCommand, state: LandmarkReportState, now: Date): LandmarkEvent[] {
  switch (command.type) {
    case 'ReportLandmark': {
      const { landmark, slug, reason, note, reporter, account_id } = command;
      const since = now.getTime() - CORROBORATION_WINDOW_MS;
      const repeated = state.open.some(
        (report) => report.reason === reason && report.at > since && (report.reporter === reporter || (account_id !== null && report.account_id === account_id)),
      );
      if (repeated) return [];
      const reported: LandmarkReported = {
        type: 'LandmarkReported',
        data: { landmark, slug, reason, ...(note ? { note } : {}), reporter, account_id, reported_at: now.toISOString() },
      };
      const after = evolveLandmarkReports(state, reported);
      if (reason !== 'wrong_landmark' || state.narration_status !== 'candidate') return [reported];
      const reporters = corroboration(after, 'wrong_landmark', now);
      if (reporters < EXCLUSION_THRESHOLD) return [reported];
      return [reported, { type: 'LandmarkExcludedFromNarration', data: { landmark, slug, reporters, excluded_at: now.toISOString() } }];
    }
    case 'ReviewLandmark': {
      const { landmark, slug, decision, reviewed_by } = command;
      return [{ type: 'LandmarkReviewed', data: { landmark, slug, decision, reviewed_by, reviewed_at: now.toISOString() } }];
    }
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
}

export const landmarkReportsDecider: Decider<LandmarkReportCommand, LandmarkReportState, LandmarkEvent> = {
  initialState: initialLandmarkReportState,
  evolve: evolveLandmarkReports,
  decide: decideLandmarkReports,
};

export class LandmarkNotFoundError extends DomainError {
  readonly code = 'LANDMARK_NOT_FOUND';
  readonly status = 404;
  constructor(slug: string) {
    super(`no landmark ${slug} in the loaded place sets`);
  }
}
