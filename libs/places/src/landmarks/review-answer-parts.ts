import { Type } from '@sinclair/typebox';
import { REPORT_REASONS, REVIEW_DECISIONS } from './domain/landmark-reports.js';

/** Parts of the landmark report answers (ADR 39), shared by the review and list slices: reports per reason, the narration status, the decision. */
export const ReportCountsSchema = Type.Object(Object.fromEntries(REPORT_REASONS.map((reason) => [reason, Type.Integer()])) as Record<(typeof REPORT_REASONS)[number], ReturnType<typeof Type.Integer>>, {
  description: 'Every report ever recorded, per reason',
});
export const NarrationStatusSchema = Type.Union([Type.Literal('candidate'), Type.Literal('excluded_pending_review'), Type.Literal('excluded')], {
  description: '`candidate`: narration may use it; `excluded_pending_review`: corroborated reports took it out until an operator looks; `excluded`: an operator took it out',
});
export const ReviewDecisionSchema = Type.Union(REVIEW_DECISIONS.map((decision) => Type.Literal(decision)));
