import {
  evolveLandmarkReportDoc,
  LANDMARK_EVENT_TYPES,
  LANDMARK_REPORT_INDEXES,
  LANDMARK_REPORTS_READ_MODEL,
  type LandmarkEvent,
  type LandmarkReportDoc,
} from '../../libs/places/src/index.js';
import type { Projection } from '../../libs/platform/src/index.js';

/**
 * Per landmark: how many reports of each reason, and whether narration may
 * use it (the review queue, and what the narration feed loads at start).
 */
export const landmarkReportsProjection: Projection<LandmarkReportDoc> = {
  name: LANDMARK_REPORTS_READ_MODEL.name,
  version: LANDMARK_REPORTS_READ_MODEL.version,
  streamPrefixes: ['landmark-'],
  handles: LANDMARK_EVENT_TYPES,
  indexes: LANDMARK_REPORT_INDEXES,
  async apply(event, collection) {
    const key = String(event.data.landmark);
    const landmarkEvent = { type: event.type, data: event.data } as LandmarkEvent;
    await collection.apply(key, event.position, (current) => evolveLandmarkReportDoc(current, key, landmarkEvent));
  },
};
