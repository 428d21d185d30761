import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { command, CommandPipeline, type DeclaredCommandHandler, type AnswerOf } from '../../../../../platform/src/index.js';
import { landmarkReportsDecider, landmarkStream, type LandmarkEvent, type LandmarkReportState, type ReviewDecision, type ReviewLandmark } from '../../domain/landmark-reports.js';
import { Landmarks } from '../../public/landmarks.js';
import { landmarkOfSlug, reportSummary, type LandmarkLookup } from '../landmark-report-answer.js';
import type { LandmarkReviewSchema } from './review-landmark.answer.js';

/** The operator's keep/exclude on a landmark's stream; always accepted. */
export const reviewLandmark = command<ReviewLandmark, LandmarkReportState, LandmarkEvent>({
  name: 'places.review-landmark',
  stream: (input) => landmarkStream(input.landmark),
  decider: landmarkReportsDecider,
  // A review racing a report is decided again on the new state: the review settles whatever reports came before it.
  onConflict: { retry: 3 },
  awaits: [
    // Routes must follow the decision once it is acknowledged.
    'narration_feed',
    // Soft: the answer is folded from the stream; a slow projection only
    // delays the review queue's update (the review is stored either way).
    { readModel: 'landmark_reports', soft: true },
  ],
});

export type ReviewAnswer = AnswerOf<typeof LandmarkReviewSchema>;

/** POST /v2/admin/landmarks/{slug}/review and `npm run ops -- landmarks:review`. */
export class ReviewLandmarkCommand extends Command<ReviewAnswer> {
  constructor(
    readonly slug: string,
    readonly decision: ReviewDecision,
    readonly reviewedBy: string,
  ) {
    super();
  }
}

/**
 * Finds the landmark the slug names and runs the declaration through the
 * pipeline. The operator CLI, outside Nest, constructs it with its own
 * pipeline and lookup and calls `execute` with the same command.
 */
@CommandHandler(ReviewLandmarkCommand)
export class ReviewLandmarkHandler implements ICommandHandler<ReviewLandmarkCommand>, DeclaredCommandHandler {
  declaration() {
    return reviewLandmark;
  }

  constructor(
    private readonly commands: CommandPipeline,
    @Inject(Landmarks) private readonly landmarks: LandmarkLookup,
  ) {}

  async execute({ slug, decision, reviewedBy }: ReviewLandmarkCommand): Promise<ReviewAnswer> {
    const landmark = landmarkOfSlug(this.landmarks, slug);
    const { state } = await this.commands.run(reviewLandmark, { type: 'ReviewLandmark', landmark: landmark.key, slug: landmark.slug, decision, reviewed_by: reviewedBy });
    return { slug: landmark.slug, name: landmark.place.name, decision, ...reportSummary(state) };
  }
}
