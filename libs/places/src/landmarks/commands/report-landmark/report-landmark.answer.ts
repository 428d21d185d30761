import { Type } from '@sinclair/typebox';
import { defineAnswer, Nullable } from '../../../../../platform/src/index.js';
import { REPORT_REASONS } from '../../domain/landmark-reports.js';
import { NarrationStatusSchema } from '../../queries/answer-parts.js';

/** POST /v2/landmarks/{slug}/report (ADR 39). */
export const ReportLandmarkAnswerSchema = defineAnswer(
  'LandmarkReportAnswer',
  Type.Object({
    slug: Type.String({ description: "The landmark's current slug (an old slug of a renamed landmark answers the new one)" }),
    reason: Type.Union(REPORT_REASONS.map((reason) => Type.Literal(reason))),
    counted: Type.Boolean({ description: 'False for a repeat by the same reporter and reason within 30 days' }),
    corroborated_by: Type.Integer({ description: 'Distinct reporters of this reason within 30 days' }),
    reports: Type.Object(
      { wrong_landmark: Type.Integer(), wrong_side: Type.Integer(), landmark_gone: Type.Integer(), other: Type.Integer() },
      { description: 'Every report ever recorded, per reason' },
    ),
    narration_status: NarrationStatusSchema,
    excluded_from_narration: Type.Boolean(),
    excluded_at: Nullable(Type.String({ format: 'date-time' })),
    reviewed_at: Nullable(Type.String({ format: 'date-time' })),
  }),
  {
    slug: 'makola-market',
    reason: 'wrong_landmark',
    counted: true,
    corroborated_by: 3,
    reports: { wrong_landmark: 3, wrong_side: 0, landmark_gone: 0, other: 1 },
    narration_status: 'excluded_pending_review',
    excluded_from_narration: true,
    excluded_at: '2026-11-27T08:55:10.402Z',
    reviewed_at: null,
  },
);
