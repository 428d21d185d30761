import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { REVIEW_DECISIONS, type ReviewDecision } from '../../domain/landmark-reports.js';

/** POST /v2/admin/landmarks/{slug}/review. */
export class ReviewLandmarkRequest {
  @ApiProperty({ enum: REVIEW_DECISIONS, description: '`keep`: the landmark is a narration candidate again and its reports so far are settled; `exclude`: narration never names it (until a later `keep`)' })
  @IsIn(REVIEW_DECISIONS, { message: `decision must be one of ${REVIEW_DECISIONS.join(', ')}` })
  decision: ReviewDecision;
}
