import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';
import { OrNull } from '../../answer-parts.js';

const Factor = {
  count: Type.Integer({ description: 'Loans with the factor' }),
  share: Type.Number({ minimum: 0, maximum: 1, description: 'count / loans_assessed, 4 decimals' }),
  loan_ids: Type.Array(Type.String(), { description: 'At most `limit` of them' }),
};

/** POST /v2/analytics/portfolio-risk (risk/assess-portfolio.ts; docs/adr/0022). */
export const PortfolioRiskSchema = defineAnswer(
  'PortfolioRisk',
  Type.Object({
    as_of: Type.String({ format: 'date-time' }),
    loans_assessed: Type.Integer(),
    levels: Type.Object({ high: Type.Integer(), medium: Type.Integer(), low: Type.Integer() }, { description: 'Loans per risk level' }),
    factors: Type.Object({
      out_of_zone: Type.Object(Factor),
      not_seen: Type.Object({ ...Factor, days: Type.Integer({ description: "The not_seen_days applied where a loan has no expected_collection_days" }) }),
      drifting: Type.Object(Factor),
      weather_alert: Type.Union(
        [
          Type.Object({ available: Type.Literal(true), ...Factor }),
          Type.Object({
            available: Type.Literal(false),
            reason: Type.String(),
            count: Type.Null(),
            share: Type.Null(),
            loan_ids: Type.Array(Type.String(), { maxItems: 0 }),
          }),
        ],
        { description: 'available: false while the deployment has no alert feed and no imported alert' },
      ),
      no_consent: Type.Object(Factor, { description: 'Borrowers without a loan_collections consent: their positions are not used, so they count as not seen' }),
    }),
    concentration: Type.Object({
      resolution: Type.Integer({ description: 'H3 resolution the loans are counted at (7, about 5 km²)' }),
      min_loans: Type.Integer({ description: 'concentration_min_loans: loans in one hex at which the factor is full' }),
      hexes_with_loans: Type.Integer(),
      concentrated_loans: Type.Integer({ description: 'Loans in a hex holding at least min_loans' }),
      top_hexes: Type.Array(Type.Object({ hex_code: Type.String(), h3_cell: Type.String(), loans: Type.Integer(), share: Type.Number() })),
    }),
    loans: Type.Array(
      Type.Object({
        loan_id: Type.String(),
        customer_id: Type.String(),
        score: Type.Integer({ minimum: 0, maximum: 100 }),
        level: Type.Union([Type.Literal('high'), Type.Literal('medium'), Type.Literal('low')]),
        consent: Type.Boolean({ description: 'Whether a loan_collections consent stands' }),
        out_of_zone: Type.Boolean(),
        not_seen: Type.Boolean(),
        drifting: Type.Boolean(),
        weather_alert: Type.Boolean(),
        loans_in_hex: Type.Integer({ description: "Loans of the book in the loan's res-7 hex, itself included" }),
        last_seen_at: OrNull(Type.String({ format: 'date-time' })),
        distance_m: OrNull(Type.Number({ description: 'From the last position to the zone: 0 inside' })),
        hex_code: Type.String({ description: "The res-7 hex of the zone's anchor" }),
      }),
      { description: 'Highest score first, at most `limit`' },
    ),
    not_found: Type.Array(Type.String(), { description: 'Loan ids asked for that the account has not registered' }),
  }),
  {
    as_of: '2026-11-27T08:30:00.000Z',
    loans_assessed: 2,
    levels: { high: 1, medium: 0, low: 1 },
    factors: {
      out_of_zone: { count: 1, share: 0.5, loan_ids: ['KMA-2026-004188'] },
      not_seen: { count: 1, share: 0.5, loan_ids: ['KMA-2026-004188'], days: 7 },
      drifting: { count: 0, share: 0, loan_ids: [] },
      weather_alert: { available: true, count: 0, share: 0, loan_ids: [] },
      no_consent: { count: 0, share: 0, loan_ids: [] },
    },
    concentration: { resolution: 7, min_loans: 20, hexes_with_loans: 2, concentrated_loans: 0, top_hexes: [{ hex_code: 'AS7H2K', h3_cell: '87754e64dffffff', loans: 1, share: 0.5 }] },
    loans: [
      { loan_id: 'KMA-2026-004188', customer_id: 'cust-88214', score: 61, level: 'high', consent: true, out_of_zone: true, not_seen: true, drifting: false, weather_alert: false, loans_in_hex: 1, last_seen_at: '2026-11-12T16:02:10.000Z', distance_m: 2310, hex_code: 'AS7H2M' },
      { loan_id: 'KMA-2026-004187', customer_id: 'cust-88213', score: 1, level: 'low', consent: true, out_of_zone: false, not_seen: false, drifting: false, weather_alert: false, loans_in_hex: 1, last_seen_at: '2026-11-27T07:58:41.000Z', distance_m: 0, hex_code: 'AS7H2K' },
    ],
    not_found: [],
  },
);
