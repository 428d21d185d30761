import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { collectionName, READ_STORE, type ReadStore, type AnswerOf } from '../../../../../platform/src/index.js';
import type { NarrationStatus } from '../../domain/landmark-reports.js';
import { LANDMARK_REPORT_INDEXES, LANDMARK_REPORTS_READ_MODEL, type LandmarkReportDoc } from '../../public/landmark-reports.read-model.js';
import type { LandmarkReportsPageSchema } from './list-landmark-reports.answer.js';

export type LandmarkReportsPage = AnswerOf<typeof LandmarkReportsPageSchema>;

/** GET /v2/admin/landmarks/reports[?status=&limit=&cursor=]. */
export class ListLandmarkReportsQuery extends Query<LandmarkReportsPage> {
  constructor(
    readonly status: NarrationStatus,
    readonly limit: number,
    readonly cursor?: string,
  ) {
    super();
  }
}

/** The review queue and the rest of the landmark_reports read model, most recently reported first. */
@QueryHandler(ListLandmarkReportsQuery)
export class ListLandmarkReportsHandler implements IQueryHandler<ListLandmarkReportsQuery> {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  async execute({ status, limit, cursor }: ListLandmarkReportsQuery): Promise<LandmarkReportsPage> {
    const collection = await this.readStore.collection<LandmarkReportDoc>(collectionName(LANDMARK_REPORTS_READ_MODEL), LANDMARK_REPORT_INDEXES);
    const page = await collection.find({ index: 'by_status', equals: [status], direction: 'desc', limit, cursor });
    return { items: page.items, next_cursor: page.nextCursor };
  }
}
