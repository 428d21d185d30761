import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LandmarkReportDoc } from '../../libs/places/src/index.js';
import { collectionName, EmbeddedReadStore, type RecordedEvent } from '../../libs/platform/src/index.js';
import { landmarkReportsProjection } from './landmark-reports.projection.js';

const event = (type: string, position: bigint, data: Record<string, unknown>): RecordedEvent => ({
  id: `event-${position}`,
  streamName: 'landmark-56avfa4c8v',
  type,
  data: { landmark: '56avfa4c8v', slug: 'korle-bu-56avfa4c8v', ...data },
  metadata: { schema_version: 1 },
  revision: position - 1n,
  position,
  createdAt: new Date(),
});
const reported = (position: bigint, reason: string) =>
  event('LandmarkReported', position, { reason, reporter: `r${position}`, account_id: null, reported_at: `2026-11-22T10:00:0${position}.000Z` });

describe('landmark_reports projection', () => {
  it('counts reports per reason and follows the narration status; a replayed event changes nothing', async () => {
    const store = await EmbeddedReadStore.open(mkdtempSync(path.join(tmpdir(), 'landmark-reports-')));
    try {
      const collection = await store.collection<LandmarkReportDoc>(collectionName(landmarkReportsProjection), landmarkReportsProjection.indexes);
      for (const [position, reason] of [[1n, 'wrong_landmark'], [2n, 'wrong_side'], [3n, 'wrong_landmark'], [4n, 'wrong_landmark']] as const) {
        await landmarkReportsProjection.apply(reported(position, reason), collection);
      }
      const excluded = event('LandmarkExcludedFromNarration', 5n, { reporters: 3, excluded_at: '2026-11-22T10:00:05.000Z' });
      await landmarkReportsProjection.apply(excluded, collection);
      const stored = await collection.getStored('56avfa4c8v');
      await landmarkReportsProjection.apply(reported(4n, 'wrong_landmark'), collection);
      await landmarkReportsProjection.apply(excluded, collection);
      expect(await collection.getStored('56avfa4c8v')).toEqual(stored);
      expect(stored?.doc).toMatchObject({
        slug: 'korle-bu-56avfa4c8v',
        reports: { wrong_landmark: 3, wrong_side: 1, landmark_gone: 0, other: 0 },
        narration_status: 'excluded_pending_review',
        excluded_at: '2026-11-22T10:00:05.000Z',
      });
      const queue = await collection.find({ index: 'by_status', equals: ['excluded_pending_review'] });
      expect(queue.items.map((doc) => doc.id)).toEqual(['56avfa4c8v']);

      await landmarkReportsProjection.apply(event('LandmarkReviewed', 6n, { decision: 'keep', reviewed_by: 'ops', reviewed_at: '2026-11-23T00:00:00.000Z' }), collection);
      expect(await collection.get('56avfa4c8v')).toMatchObject({ narration_status: 'candidate', review_decision: 'keep', excluded_at: null, reports: { wrong_landmark: 3 } });
      expect((await collection.find({ index: 'by_status', equals: ['excluded_pending_review'] })).items).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
