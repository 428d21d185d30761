import {
  appendDecided,
  collectionName,
  ConcurrencyError,
  loadStream,
  TimeoutError,
  type Clock,
  type EventRegistry,
  type EventStore,
  type ProjectionWaiter,
  type ReadStore,
} from '../../../platform/src/index.js';
import { keyOfSlug, type Landmark } from './domain/landmark.js';
import {
  corroboration,
  decideLandmarkReports,
  evolveLandmarkReports,
  initialLandmarkReportState,
  LandmarkNotFoundError,
  landmarkStream,
  type LandmarkEvent,
  type LandmarkReportCommand,
  type LandmarkReportState,
  type NarrationStatus,
  type ReportReason,
  type ReviewDecision,
} from './domain/landmark-reports.js';
import { LANDMARK_REPORT_INDEXES, LANDMARK_REPORTS_READ_MODEL, type LandmarkReportDoc } from './landmark-report-view.js';

const MAX_ATTEMPTS = 3;

export interface ReportInput {
  reason: ReportReason;
  note?: string;
  /** The keyed hash of the client IP (ReporterIdentity). */
  reporter: string;
  account_id: string | null;
}

/** Report and review commands on a landmark's stream: load, decide, append with the expected revision, wait for the read side. */
export class LandmarkReports {
  constructor(
    private readonly events: EventStore,
    private readonly registry: EventRegistry,
    private readonly readStore: ReadStore,
    private readonly resolve: (key: string) => Landmark | undefined,
    private readonly clock: Clock,
    private readonly waitMs: number,
    private readonly feed?: { waitFor(position: bigint, timeoutMs: number): Promise<void> },
    private readonly readModels?: ProjectionWaiter,
  ) {}

  async report(slug: string, input: ReportInput) {
    const landmark = this.landmark(slug);
    const { state, recorded } = await this.execute(landmark, (now) => ({ type: 'ReportLandmark', landmark: landmark.key, slug: landmark.slug, ...input, now }));
    return {
      slug: landmark.slug,
      reason: input.reason,
      /** False when this reporter had already reported this reason: the report reinforces nothing new. */
      counted: recorded,
      corroborated_by: corroboration(state, input.reason, this.clock.now()),
      ...this.summary(state),
    };
  }

  async review(slug: string, decision: ReviewDecision, reviewedBy: string) {
    const landmark = this.landmark(slug);
    const { state } = await this.execute(landmark, (now) => ({ type: 'ReviewLandmark', landmark: landmark.key, slug: landmark.slug, decision, reviewed_by: reviewedBy, now }));
    return { slug: landmark.slug, name: landmark.place.name, decision, ...this.summary(state) };
  }

  /** The review queue and the rest of the read model, most recently reported first. */
  async list(status: NarrationStatus, limit: number, cursor?: string): Promise<{ items: LandmarkReportDoc[]; next_cursor: string | null }> {
    const collection = await this.readStore.collection<LandmarkReportDoc>(collectionName(LANDMARK_REPORTS_READ_MODEL), LANDMARK_REPORT_INDEXES);
    const page = await collection.find({ index: 'by_status', equals: [status], direction: 'desc', limit, cursor });
    return { items: page.items, next_cursor: page.nextCursor };
  }

  private landmark(slug: string): Landmark {
    const key = keyOfSlug(slug);
    const landmark = key === null ? undefined : this.resolve(key);
    if (!landmark) throw new LandmarkNotFoundError(slug);
    return landmark;
  }

  private summary(state: LandmarkReportState) {
    return {
      reports: state.reports,
      narration_status: state.narration_status,
      excluded_from_narration: state.narration_status !== 'candidate',
      excluded_at: state.excluded_at,
      reviewed_at: state.reviewed_at,
    };
  }

  /** Reports on one landmark may race (it is a public endpoint): a lost race is decided again on the new state. */
  private async execute(landmark: Landmark, command: (now: Date) => LandmarkReportCommand): Promise<{ state: LandmarkReportState; recorded: boolean }> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.attempt(landmark, command);
      } catch (error) {
        if (!(error instanceof ConcurrencyError) || attempt === MAX_ATTEMPTS) throw error;
      }
    }
  }

  private async attempt(landmark: Landmark, command: (now: Date) => LandmarkReportCommand): Promise<{ state: LandmarkReportState; recorded: boolean }> {
    const stream = landmarkStream(landmark.key);
    const { state, revision } = await loadStream(this.events, this.registry, stream, evolveLandmarkReports, initialLandmarkReportState);
    const decided: LandmarkEvent[] = decideLandmarkReports(command(this.clock.now()), state);
    if (decided.length === 0) return { state, recorded: false };
    const { position } = await appendDecided(this.events, this.registry, stream, decided, revision);
    await this.settle(position);
    return { state: decided.reduce(evolveLandmarkReports, state), recorded: true };
  }

  /**
   * The narration feed must hold an exclusion before the command answers (the
   * next route must not name the landmark); the read model is waited for too,
   * but a slow projection only delays the answer: the event is stored either way.
   */
  private async settle(position: bigint): Promise<void> {
    await this.feed?.waitFor(position, this.waitMs);
    try {
      await this.readModels?.waitFor(LANDMARK_REPORTS_READ_MODEL.name, position, this.waitMs);
    } catch (error) {
      if (!(error instanceof TimeoutError)) throw error;
    }
  }
}
