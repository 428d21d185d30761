import { readFileSync } from 'node:fs';
import path from 'node:path';
import { EventRegistry, type RecordedEvent } from '../../platform/src/index.js';
import { placesEventTypes } from './event-types.js';
import { evolveLandmarkReports, initialLandmarkReportState, LANDMARK_EVENT_TYPES, type LandmarkEvent } from './landmarks/domain/landmark-reports.js';

/** Stored JSON from schema version 1 must still fold into today's state (style.md: upcasters against fixtures). */
const fixture = JSON.parse(readFileSync(path.join(import.meta.dirname, '__fixtures__/landmark-events.v1.json'), 'utf8')) as {
  events: Array<{ type: string; metadata: Record<string, unknown>; data: Record<string, unknown> }>;
};

describe('places event types', () => {
  const registry = new EventRegistry().register(...placesEventTypes);

  it('registers every landmark event type with a version', () => {
    for (const type of LANDMARK_EVENT_TYPES) expect(registry.version(type)).toBe(1);
  });

  it('reads version-1 stored landmark events into an operator-excluded landmark', () => {
    const events = fixture.events.map((stored, index) => {
      const event = registry.upcast({
        id: `fixture-${index}`,
        streamName: 'landmark-56avfa4c8v',
        type: stored.type,
        data: stored.data,
        metadata: stored.metadata,
        revision: BigInt(index),
        position: BigInt(index + 1),
        createdAt: new Date(0),
      } satisfies RecordedEvent);
      return { type: event.type, data: event.data } as unknown as LandmarkEvent;
    });
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
