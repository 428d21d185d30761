import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../../platform/src/index.js';
import { REPORT_REASONS, REVIEW_DECISIONS } from '../../domain/landmark-reports.js';

/** Parts of the landmark report answers (ADR 39): reports per reason and the narration status. */
export const ReportCountsSchema = Type.Object(Object.fromEntries(REPORT_REASONS.map((reason) => [reason, Type.Integer()])) as Record<(typeof REPORT_REASONS)[number], ReturnType<typeof Type.Integer>>, {
  description: 'Every report ever recorded, per reason',
});
export const NarrationStatusSchema = Type.Union([Type.Literal('candidate'), Type.Literal('excluded_pending_review'), Type.Literal('excluded')], {
  description: '`candidate`: narration may use it; `excluded_pending_review`: corroborated reports took it out until an operator looks; `excluded`: an operator took it out',
});
export const ReviewDecisionSchema = Type.Union(REVIEW_DECISIONS.map((decision) => Type.Literal(decision)));
const OrNullTime = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);

/** POST /v2/admin/landmarks/{slug}/review (ReviewAnswer). */
export const LandmarkReviewSchema = defineAnswer(
  'LandmarkReview',
  Type.Object({
    slug: Type.String(),
    name: Type.String(),
    decision: ReviewDecisionSchema,
    reports: ReportCountsSchema,
    narration_status: NarrationStatusSchema,
    excluded_from_narration: Type.Boolean(),
    excluded_at: OrNullTime,
    reviewed_at: OrNullTime,
  }),
  {
    slug: 'makola-market-3f9a2c',
    name: 'Makola Market',
    decision: 'keep',
    reports: { wrong_landmark: 3, wrong_side: 0, landmark_gone: 0, other: 1 },
    narration_status: 'candidate',
    excluded_from_narration: false,
    excluded_at: null,
    reviewed_at: '2026-11-27T09:30:00.000Z',
  },
);
