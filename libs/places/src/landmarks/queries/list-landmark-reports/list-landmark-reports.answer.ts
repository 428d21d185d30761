import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../../platform/src/index.js';
import { NarrationStatusSchema, ReportCountsSchema, ReviewDecisionSchema } from '../../review-answer-parts.js';

const OrNullTime = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);

/** GET /v2/admin/landmarks/reports (the landmark_reports read model, LandmarkReportDoc). */
export const LandmarkReportsPageSchema = defineAnswer(
  'LandmarkReportsPage',
  Type.Object({
    items: Type.Array(
      Type.Object({
        id: Type.String({ description: 'The landmark key (the hash part of the slug)' }),
        slug: Type.String(),
        reports: ReportCountsSchema,
        narration_status: NarrationStatusSchema,
        last_reported_at: OrNullTime,
        excluded_at: OrNullTime,
        reviewed_at: OrNullTime,
        review_decision: Type.Union([ReviewDecisionSchema, Type.Null()]),
      }),
      { description: 'Most recently reported first' },
    ),
    next_cursor: Type.Union([Type.String(), Type.Null()]),
  }),
  {
    items: [
      {
        id: '3f9a2c',
        slug: 'makola-market-3f9a2c',
        reports: { wrong_landmark: 3, wrong_side: 0, landmark_gone: 0, other: 0 },
        narration_status: 'excluded_pending_review',
        last_reported_at: '2026-11-26T17:45:12.000Z',
        excluded_at: '2026-11-26T17:45:12.000Z',
        reviewed_at: null,
        review_decision: null,
      },
    ],
    next_cursor: null,
  },
);
