import { deciderSpec } from '../../../../platform/src/testing/decider-spec.js';
import {
  corroboration,
  CORROBORATION_WINDOW_MS,
  EXCLUSION_THRESHOLD,
  landmarkReportsDecider,
  type LandmarkEvent,
  type LandmarkReportCommand,
  type ReportLandmark,
  type ReportReason,
  type ReviewDecision,
} from './landmark-reports.js';

const t0 = new Date('2026-11-01T00:00:00Z');
const later = (ms: number) => new Date(t0.getTime() + ms);
const DAY = 24 * 3600 * 1000;
const { given, history } = deciderSpec(landmarkReportsDecider, t0);

const report = (reporter: string, reason: ReportReason = 'wrong_landmark', account_id: string | null = null): ReportLandmark => ({
  type: 'ReportLandmark',
  landmark: 'k',
  slug: 's-k',
  reason,
  reporter,
  account_id,
});
const review = (decision: ReviewDecision): LandmarkReportCommand => ({ type: 'ReviewLandmark', landmark: 'k', slug: 's-k', decision, reviewed_by: 'ops' });
const types = (events: LandmarkEvent[]) => events.map((event) => event.type);

describe('landmark reports', () => {
  it(`excludes a landmark from narration when the ${EXCLUSION_THRESHOLD}rd distinct reporter says wrong_landmark`, () => {
    const two = given(history(report('a'), report('b')));
    expect(two.state.narration_status).toBe('candidate');
    expect(types(history(report('a'), report('b')))).toEqual(['LandmarkReported', 'LandmarkReported']);
    const third = two.when(report('c'));
    expect(types(third.events)).toEqual(['LandmarkReported', 'LandmarkExcludedFromNarration']);
    expect(third.events[1]).toEqual({ type: 'LandmarkExcludedFromNarration', data: { landmark: 'k', slug: 's-k', reporters: 3, excluded_at: t0.toISOString() } });
    expect(third.state).toMatchObject({ narration_status: 'excluded_pending_review', reports: { wrong_landmark: 3 } });
  });

  it('records a report with the time it is decided, and a note only when one is given', () => {
    expect(given([]).when({ ...report('a', 'other'), note: 'behind the market' }, later(DAY)).events).toEqual([
      { type: 'LandmarkReported', data: { landmark: 'k', slug: 's-k', reason: 'other', note: 'behind the market', reporter: 'a', account_id: null, reported_at: later(DAY).toISOString() } },
    ]);
    expect(given([]).when(report('a')).events[0].data).not.toHaveProperty('note');
  });

  it('counts the same reporter once: a repeat records nothing, whether by IP or by account', () => {
    const events = history(report('a'), report('a'), report('b', 'wrong_landmark', 'acct_1'), report('c', 'wrong_landmark', 'acct_1'));
    expect(events).toHaveLength(2);
    const { state } = given(events);
    expect(corroboration(state, 'wrong_landmark', t0)).toBe(2);
    expect(state.narration_status).toBe('candidate');
  });

  it('lets other reasons reinforce one another without excluding', () => {
    const events = history(report('a', 'landmark_gone'), report('b', 'landmark_gone'), report('c', 'landmark_gone'), report('d', 'wrong_side'));
    expect(events.every((event) => event.type === 'LandmarkReported')).toBe(true);
    const { state } = given(events);
    expect(state.reports).toEqual({ wrong_landmark: 0, wrong_side: 1, landmark_gone: 3, other: 0 });
    expect(corroboration(state, 'landmark_gone', t0)).toBe(3);
    expect(state.narration_status).toBe('candidate');
  });

  it('forgets reports older than the window', () => {
    const past = given(history([report('a'), t0], [report('b'), later(10 * DAY)], [report('c'), later(CORROBORATION_WINDOW_MS + DAY)]));
    expect(past.state.narration_status).toBe('candidate');
    expect(corroboration(past.state, 'wrong_landmark', later(CORROBORATION_WINDOW_MS + DAY))).toBe(2);
    // The first reporter may report again once their report left the window.
    expect(past.when(report('a'), later(CORROBORATION_WINDOW_MS + 2 * DAY)).state.narration_status).toBe('excluded_pending_review');
  });

  it('after a keep review, only new reports count towards excluding it again', () => {
    const excluded = history(report('a'), report('b'), report('c'));
    const kept = given([...excluded, ...given(excluded).when(review('keep'), later(DAY)).events]);
    expect(kept.state).toMatchObject({ narration_status: 'candidate', review_decision: 'keep', excluded_at: null, reviewed_at: later(DAY).toISOString(), reports: { wrong_landmark: 3 } });
    const afterTwo = given([...excluded, ...given(excluded).when(review('keep'), later(DAY)).events, ...history(report('a'), report('b'))]);
    expect(afterTwo.state.narration_status).toBe('candidate');
    expect(afterTwo.when(report('c'), later(2 * DAY)).state.narration_status).toBe('excluded_pending_review');
    const out = kept.when(review('exclude'), later(DAY));
    expect(out.state.narration_status).toBe('excluded');
    // Reports on an operator-excluded landmark are recorded but do not change its status.
    const reportedOut = given([...excluded, ...given(excluded).when(review('keep'), later(DAY)).events, ...out.events]).when(report('z'), later(DAY));
    expect(types(reportedOut.events)).toEqual(['LandmarkReported']);
    expect(reportedOut.state.narration_status).toBe('excluded');
  });
});
