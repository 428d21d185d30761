import { EventRegistry } from '../../platform/src/index.js';
import { readStoredEvents, upcastStoredEvents } from '../../../test/support/stored-events.js';
import { ARRIVAL_EVENT_TYPES, type ArrivalRecorded } from './domain/arrival.js';
import { HAZARD_EVENT_TYPES, IncidentBoard, type HazardReported } from './domain/hazard.js';
import { LearnedTraffic } from './domain/learned-traffic.js';
import { trafficEventTypes } from './event-types.js';
import { applyArrival } from './public/traffic-view.js';

/** Stored JSON from schema version 1 must still fold into today's views (style.md: upcasters against fixtures). */
const stored = readStoredEvents(new URL('./__fixtures__/traffic-events.v1.json', import.meta.url));

describe('traffic event types', () => {
  const registry = new EventRegistry().register(...trafficEventTypes);

  it('registers every event type of the context with a version, and has a stored fixture of each', () => {
    const types = [...HAZARD_EVENT_TYPES, ...ARRIVAL_EVENT_TYPES];
    for (const type of types) expect(registry.version(type)).toBe(1);
    expect(new Set(stored.map((event) => event.type))).toEqual(new Set(types));
  });

  it('folds version-1 reports into one corroborated incident, and an arrival without a reporter into a sample of the one legacy reporter (the cell stays on the prior)', () => {
    const events = upcastStoredEvents<HazardReported | ArrivalRecorded>(registry, stored);
    const board = new IncidentBoard();
    const learned = new LearnedTraffic();
    for (const event of events) {
      if (event.type === 'HazardReported') board.apply(event.data);
      else applyArrival(learned, event.data);
    }
    expect(board.active(new Date('2026-11-23T10:00:00Z'))).toEqual([
      expect.objectContaining({ id: 'inc_0a1b2c3d4e5f60718293a4b5c6d7e8f9', kind: 'flooding', corroborations: 2, note: 'water over the road', expires_at: '2026-11-23T21:30:00.000Z' }),
    ]);
    // ADR 0031: arrivals stored before reporters were kept all count as one reporter, so they alone never move routes.
    expect(learned.estimate('88754e6499fffff', 8)).toEqual({ factor: 1, source: 'prior', samples: 1, reporters: 1, weight: 1 });
    expect(learned.factor('88754e6499fffff', 8)).toBeUndefined();
    expect(learned.arrivalError('89754e64993ffff')).toEqual({ count: 1, mean_m: 22.2 });
  });
});
