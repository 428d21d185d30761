import type { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import {
  checkpointName,
  collectionName,
  forEachDocument,
  LogFollower,
  type FollowedView,
  type EventRegistry,
  type EventStore,
  type JsonLogger,
  type ReadStore,
  type RecordedEvent,
} from '../../../../platform/src/index.js';
import type { LandmarkExcludedFromNarration, LandmarkReviewed, NarrationStatus } from '../domain/landmark-reports.js';
import { LANDMARK_REPORT_INDEXES, LANDMARK_REPORTS_READ_MODEL, type LandmarkReportDoc } from '../public/landmark-reports.read-model.js';

const PREFIXES = ['landmark-'];
const EXCLUDED_STATUSES: NarrationStatus[] = ['excluded_pending_review', 'excluded'];

/**
 * Which landmarks narration must not use, in memory (a handful among
 * thousands), so every landmark answer and `narrationCandidates` can say it
 * without a read per landmark. Like the geofence feed: at start it loads the
 * `landmark_reports` read model as of its checkpoint, then follows the
 * `landmark-` streams from there. Exclusion and review events state the status
 * outright, so replaying some of them again changes nothing. Report and review
 * commands wait (`waitFor`) until this process has applied their events.
 */
export class NarrationFeed implements OnApplicationBootstrap, OnModuleDestroy, FollowedView {
  static readonly readModel = 'narration_feed';
  private readonly excluded = new Map<string, NarrationStatus>();
  readonly follower: LogFollower;

  constructor(
    events: EventStore,
    private readonly readStore: ReadStore,
    registry: EventRegistry,
    logger?: Pick<JsonLogger, 'error' | 'warn'>,
  ) {
    this.follower = new LogFollower(
      events,
      registry,
      readStore,
      {
        name: 'landmark narration feed',
        streamPrefixes: PREFIXES,
        start: { from: 'load', key: checkpointName(LANDMARK_REPORTS_READ_MODEL), load: () => this.load() },
        sink: { handle: (event) => this.apply(event) },
      },
      logger,
    );
  }

  start(): Promise<void> {
    return this.follower.start();
  }

  private async load(): Promise<void> {
    const collection = await this.readStore.collection<LandmarkReportDoc>(collectionName(LANDMARK_REPORTS_READ_MODEL), LANDMARK_REPORT_INDEXES);
    for (const status of EXCLUDED_STATUSES) {
      await forEachDocument(collection, { index: 'by_status', equals: [status] }, (doc) => this.excluded.set(doc.id, status));
    }
  }

  /** Nest starts it before the application serves its first request. */
  onApplicationBootstrap(): Promise<void> {
    return this.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.follower.stop();
  }

  /** `candidate` unless reports or an operator took the landmark out of narration. */
  status(key: string): NarrationStatus {
    return this.excluded.get(key) ?? 'candidate';
  }

  isExcluded(key: string): boolean {
    return this.excluded.has(key);
  }

  waitFor(position: bigint, timeoutMs: number): Promise<void> {
    return this.follower.waitFor(position, timeoutMs);
  }

  private apply(event: RecordedEvent): void {
    if (event.type === 'LandmarkExcludedFromNarration') {
      this.excluded.set((event.data as LandmarkExcludedFromNarration['data']).landmark, 'excluded_pending_review');
    } else if (event.type === 'LandmarkReviewed') {
      const data = event.data as LandmarkReviewed['data'];
      if (data.decision === 'keep') this.excluded.delete(data.landmark);
      else this.excluded.set(data.landmark, 'excluded');
    }
  }
}
