/**
 * The per-loan risk score of POST /v2/analytics/portfolio-risk (docs/adr/0022):
 * a weighted sum of what is known about the borrower, 0 to 100.
 *
 * | factor | weight | when |
 * |---|---|---|
 * | out_of_zone | 35 | the last known position is outside the loan's collection zone |
 * | not_seen | 25 | no position newer than the loan's `expected_collection_days` (else the request's `not_seen_days`); never seen counts, and so does a borrower without loan_collections consent (unobservable) |
 * | drifting | 20 | monitoring reports the borrower out of their registered home zone (drift) |
 * | weather_alert | 10 | the zone's anchor lies under an active flood or severe-weather alert (only when alerts are available) |
 * | concentration | 10 × min(1, loans in the res-7 hex / concentration_min_loans) | many loans in one ~5 km² cell share one local shock |
 *
 * The sum is capped at 100 and rounded; 60 or more is `high`, 30 or more `medium`, else `low`.
 * Weights are a documented starting point, not a fitted model: the factors are in
 * every answer so that a lender can weigh them their own way.
 */
export const RISK_WEIGHTS = { out_of_zone: 35, not_seen: 25, drifting: 20, weather_alert: 10, concentration: 10 } as const;
export const HIGH_RISK = 60;
export const MEDIUM_RISK = 30;
export type RiskLevel = 'high' | 'medium' | 'low';

export interface LoanRiskFactors {
  out_of_zone: boolean;
  not_seen: boolean;
  drifting: boolean;
  weather_alert: boolean;
  /** Loans of the book in the loan's res-7 cell (itself included). */
  loans_in_hex: number;
}

export function riskScore(factors: LoanRiskFactors, concentrationMinLoans: number): number {
  const concentration = Math.min(1, factors.loans_in_hex / concentrationMinLoans);
  const sum =
    (factors.out_of_zone ? RISK_WEIGHTS.out_of_zone : 0) +
    (factors.not_seen ? RISK_WEIGHTS.not_seen : 0) +
    (factors.drifting ? RISK_WEIGHTS.drifting : 0) +
    (factors.weather_alert ? RISK_WEIGHTS.weather_alert : 0) +
    RISK_WEIGHTS.concentration * concentration;
  return Math.min(100, Math.round(sum));
}

export function riskLevel(score: number): RiskLevel {
  return score >= HIGH_RISK ? 'high' : score >= MEDIUM_RISK ? 'medium' : 'low';
}
