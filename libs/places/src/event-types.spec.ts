import { EventRegistry } from '../../platform/src/index.js';
import { readStoredEvents, upcastStoredEvents } from '../../../test/support/stored-events.js';
import { placesEventTypes } from './event-types.js';
import { evolveLandmarkReports, initialLandmarkReportState, LANDMARK_EVENT_TYPES, type LandmarkEvent } from './landmarks/domain/landmark-reports.js';

/** Stored JSON from schema version 1 must still fold into today's state (style.md: upcasters against fixtures). */
const stored = readStoredEvents(new URL('./__fixtures__/landmark-events.v1.json', import.meta.url));

describe('places event types', () => {
  const registry = new EventRegistry().register(...placesEventTypes);

  it('registers every landmark event type with a version', () => {
    for (const type of LANDMARK_EVENT_TYPES) expect(registry.version(type)).toBe(1);
  });

  it('reads version-1 stored landmark events into an operator-excluded landmark', () => {
    const events = upcastStoredEvents<LandmarkEvent>(registry, stored, 'landmark-56avfa4c8v');
    expect(events.reduce(evolveLandmarkReports, initialLandmarkReportState)).toMatchObject({
      reports: { wrong_landmark: 3, wrong_side: 0, landmark_gone: 0, other: 0 },
      open: [],
      narration_status: 'excluded',
      excluded_at: '2026-11-22T02:00:00.000Z',
      reviewed_at: '2026-11-23T00:00:00.000Z',
      review_decision: 'exclude',
    });
  });
});
