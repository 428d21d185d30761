import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, command, CommandPipeline, type Clock, type DeclaredCommandHandler, type AnswerOf } from '../../../../../platform/src/index.js';
import {
  corroboration,
  landmarkReportsDecider,
  landmarkStream,
  type LandmarkEvent,
  type LandmarkReportState,
  type ReportLandmark,
  type ReportReason,
} from '../../domain/landmark-reports.js';
import { Landmarks } from '../../public/landmarks.js';
import { landmarkOfSlug, reportSummary, type LandmarkLookup } from '../landmark-report-answer.js';
import type { ReportLandmarkAnswerSchema } from './report-landmark.answer.js';

/** A report on a landmark's stream; the decider counts a reporter once per reason and window, and excludes at the threshold. */
export const reportLandmark = command<ReportLandmark, LandmarkReportState, LandmarkEvent>({
  name: 'places.report-landmark',
  stream: (input) => landmarkStream(input.landmark),
  decider: landmarkReportsDecider,
  // Reports on one landmark may race (a public endpoint); the repeat and
  // threshold rules are the decider's, so a lost race is decided again on the new state.
  onConflict: { retry: 3 },
  awaits: [
    // The next route must not name a landmark whose exclusion was acknowledged.
    'narration_feed',
    // Soft: the answer is folded from the stream, not read from the model; the
    // model only feeds the operator's review queue, which a slow projection
    // merely delays (the report is stored either way).
    { readModel: 'landmark_reports', soft: true },
  ],
});

export interface ReportInput {
  reason: ReportReason;
  note?: string;
  /** The keyed hash of the client IP (platform's ReporterHash). */
  reporter: string;
  account_id: string | null;
}

export type ReportAnswer = AnswerOf<typeof ReportLandmarkAnswerSchema>;

/** POST /v2/landmarks/{slug}/report. */
export class ReportLandmarkCommand extends Command<ReportAnswer> {
  constructor(
    readonly slug: string,
    readonly input: ReportInput,
  ) {
    super();
  }
}

/** Finds the landmark the slug names, runs the declaration through the pipeline, answers how the report counted. */
@CommandHandler(ReportLandmarkCommand)
export class ReportLandmarkHandler implements ICommandHandler<ReportLandmarkCommand>, DeclaredCommandHandler {
  declaration() {
    return reportLandmark;
  }

  constructor(
    private readonly commands: CommandPipeline,
    @Inject(Landmarks) private readonly landmarks: LandmarkLookup,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ slug, input }: ReportLandmarkCommand): Promise<ReportAnswer> {
    const landmark = landmarkOfSlug(this.landmarks, slug);
    const { state, events } = await this.commands.run(reportLandmark, { type: 'ReportLandmark', landmark: landmark.key, slug: landmark.slug, ...input });
    return {
      slug: landmark.slug,
      reason: input.reason,
      counted: events.length > 0,
      corroborated_by: corroboration(state, input.reason, this.clock.now()),
      ...reportSummary(state),
    };
  }
}
