import {
  corroboration,
  CORROBORATION_WINDOW_MS,
  decideLandmarkReports,
  evolveLandmarkReports,
  EXCLUSION_THRESHOLD,
  initialLandmarkReportState,
  type LandmarkEvent,
  type LandmarkReportState,
  type ReportReason,
} from './landmark-reports.js';

const t0 = new Date('2026-11-01T00:00:00Z');
const later = (ms: number) => new Date(t0.getTime() + ms);
const DAY = 24 * 3600 * 1000;

/** Given the state, when a report arrives: the events, and the state after them. */
function report(state: LandmarkReportState, reporter: string, reason: ReportReason = 'wrong_landmark', now = t0, account_id: string | null = null) {
  const events = decideLandmarkReports({ type: 'ReportLandmark', landmark: 'k', slug: 's-k', reason, reporter, account_id, now }, state);
  return { events, state: events.reduce(evolveLandmarkReports, state) };
}

function reports(...steps: Array<[reporter: string, reason?: ReportReason, now?: Date, account?: string | null]>): { state: LandmarkReportState; events: LandmarkEvent[] } {
  let state = initialLandmarkReportState;
  const events: LandmarkEvent[] = [];
  for (const [reporter, reason, now, account] of steps) {
    const step = report(state, reporter, reason, now, account ?? null);
    state = step.state;
    events.push(...step.events);
  }
  return { state, events };
}

describe('landmark reports', () => {
  it(`excludes a landmark from narration when the ${EXCLUSION_THRESHOLD}rd distinct reporter says wrong_landmark`, () => {
    const two = reports(['a'], ['b']);
    expect(two.state.narration_status).toBe('candidate');
    expect(two.events.map((event) => event.type)).toEqual(['LandmarkReported', 'LandmarkReported']);
    const third = report(two.state, 'c');
    expect(third.events.map((event) => event.type)).toEqual(['LandmarkReported', 'LandmarkExcludedFromNarration']);
    expect(third.events[1].data).toMatchObject({ reporters: 3 });
    expect(third.state).toMatchObject({ narration_status: 'excluded_pending_review', reports: { wrong_landmark: 3 } });
  });

  it('counts the same reporter once: a repeat records nothing, whether by IP or by account', () => {
    const { state, events } = reports(['a'], ['a'], ['b', 'wrong_landmark', t0, 'acct_1'], ['c', 'wrong_landmark', t0, 'acct_1']);
    expect(events).toHaveLength(2);
    expect(corroboration(state, 'wrong_landmark', t0)).toBe(2);
    expect(state.narration_status).toBe('candidate');
  });

  it('lets other reasons reinforce one another without excluding', () => {
    const { state, events } = reports(['a', 'landmark_gone'], ['b', 'landmark_gone'], ['c', 'landmark_gone'], ['d', 'wrong_side']);
    expect(events.every((event) => event.type === 'LandmarkReported')).toBe(true);
    expect(state.reports).toEqual({ wrong_landmark: 0, wrong_side: 1, landmark_gone: 3, other: 0 });
    expect(corroboration(state, 'landmark_gone', t0)).toBe(3);
    expect(state.narration_status).toBe('candidate');
  });

  it('forgets reports older than the window', () => {
    const { state } = reports(['a', 'wrong_landmark', t0], ['b', 'wrong_landmark', later(10 * DAY)], ['c', 'wrong_landmark', later(CORROBORATION_WINDOW_MS + DAY)]);
    expect(state.narration_status).toBe('candidate');
    expect(corroboration(state, 'wrong_landmark', later(CORROBORATION_WINDOW_MS + DAY))).toBe(2);
    // The first reporter may report again once their report left the window.
    const again = report(state, 'a', 'wrong_landmark', later(CORROBORATION_WINDOW_MS + 2 * DAY));
    expect(again.state.narration_status).toBe('excluded_pending_review');
  });

  it('after a keep review, only new reports count towards excluding it again', () => {
    const excluded = reports(['a'], ['b'], ['c']).state;
    const review = (state: LandmarkReportState, decision: 'keep' | 'exclude') =>
      decideLandmarkReports({ type: 'ReviewLandmark', landmark: 'k', slug: 's-k', decision, reviewed_by: 'ops', now: later(DAY) }, state).reduce(evolveLandmarkReports, state);
    const kept = review(excluded, 'keep');
    expect(kept).toMatchObject({ narration_status: 'candidate', review_decision: 'keep', excluded_at: null, reports: { wrong_landmark: 3 } });
    const afterTwo = reports(['a'], ['b']).events.reduce(evolveLandmarkReports, kept);
    expect(afterTwo.narration_status).toBe('candidate');
    expect(report(afterTwo, 'c', 'wrong_landmark', later(2 * DAY)).state.narration_status).toBe('excluded_pending_review');
    const out = review(kept, 'exclude');
    expect(out.narration_status).toBe('excluded');
    // Reports on an operator-excluded landmark are recorded but do not change its status.
    expect(report(out, 'z').state.narration_status).toBe('excluded');
  });
});
