import { Inject, Injectable } from '@nestjs/common';
import { collectionName, READ_STORE, type ReadStore } from '../../../../../platform/src/index.js';
import type { NarrationStatus } from '../../domain/landmark-reports.js';
import { LANDMARK_REPORT_INDEXES, LANDMARK_REPORTS_READ_MODEL, type LandmarkReportDoc } from '../../read-models/landmark-reports.read-model.js';

/** The review queue and the rest of the landmark_reports read model, most recently reported first. */
@Injectable()
export class ListLandmarkReportsHandler {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  async execute(status: NarrationStatus, limit: number, cursor?: string): Promise<{ items: LandmarkReportDoc[]; next_cursor: string | null }> {
    const collection = await this.readStore.collection<LandmarkReportDoc>(collectionName(LANDMARK_REPORTS_READ_MODEL), LANDMARK_REPORT_INDEXES);
    const page = await collection.find({ index: 'by_status', equals: [status], direction: 'desc', limit, cursor });
    return { items: page.items, next_cursor: page.nextCursor };
  }
}
