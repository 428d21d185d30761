import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { MAX_NOTE_LENGTH, REPORT_REASONS, type ReportReason } from '../../domain/landmark-reports.js';

/** POST /v2/landmarks/{slug}/report. */
export class ReportLandmarkRequest {
  @ApiProperty({
    enum: REPORT_REASONS,
    description:
      '`wrong_landmark`: narration named a landmark that is not there or not this one; `wrong_side`: it is on the other side of the road; `landmark_gone`: it closed or was demolished; `other`',
  })
  @IsIn(REPORT_REASONS, { message: `reason must be one of ${REPORT_REASONS.join(', ')}` })
  reason: ReportReason;

  @ApiPropertyOptional({ description: 'What was wrong, in a few words (kept for the operator’s review, never shown publicly)', maxLength: MAX_NOTE_LENGTH })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_NOTE_LENGTH)
  note?: string;
}
