/**
 * Areas under an active flood or severe-weather alert, for portfolio risk
 * (issue 13: "in areas under an active flood or severe-weather alert"). The
 * port is the banking context's; the weather context implements it once
 * alerts exist (an adapter bound to ALERT_AREAS, wired where both contexts
 * meet). Until then the default adapter answers `available: false`, and
 * POST /v2/analytics/portfolio-risk reports the factor as unavailable rather
 * than as "no loan under an alert".
 *
 * `activeAt` answers, for each point in order, whether an alert that is in
 * force at `at` covers it (`covered[i]` for `points[i]`). It is called for
 * each page of the book (64 anchors; up to 100,000 in all), so an adapter
 * should test points against an index, not alert by alert.
 */
export interface AlertAreas {
  activeAt(points: ReadonlyArray<{ lat: number; lng: number }>, at: Date): Promise<{ available: false } | { available: true; covered: boolean[] }>;
}

export const ALERT_AREAS = Symbol('AlertAreas');

/** Until the weather context brings alerts. */
export const noAlertAreas: AlertAreas = {
  activeAt: async () => ({ available: false }),
};
