import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../../platform/src/index.js';
import { NarrationStatusSchema, ReportCountsSchema, ReviewDecisionSchema } from '../../review-answer-parts.js';

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
