import { EventRegistry } from '../../platform/src/index.js';
import { readStoredEvents, upcastStoredEvents } from '../../../test/support/stored-events.js';
import { AlertBook } from './alerts/alert-book.js';
import type { CapAlert } from './domain/cap-alert.js';
import { CAP_ALERT_EVENT_TYPES, CAP_ALERTS_STREAM, capAlertsDecider, type CapAlertEvent } from './domain/cap-alerts.js';
import { weatherEventTypes } from './event-types.js';

/** Stored JSON from schema version 1 must still fold into today's state and book (style.md: upcasters against fixtures). */
const stored = readStoredEvents(new URL('./__fixtures__/weather-events.v1.json', import.meta.url));

describe('weather event types', () => {
  const registry = new EventRegistry().register(...weatherEventTypes);

  it('registers every CAP alert event type with a version, and the fixture holds one of each', () => {
    for (const type of CAP_ALERT_EVENT_TYPES) expect(registry.version(type)).toBe(1);
    expect(new Set(stored.map((event) => event.type))).toEqual(new Set(CAP_ALERT_EVENT_TYPES));
  });

  it('reads version-1 stored alert events into the decider state and the alert book', () => {
    const events = upcastStoredEvents<CapAlertEvent>(registry, stored, CAP_ALERTS_STREAM);
    const state = events.reduce(capAlertsDecider.evolve, capAlertsDecider.initialState);
    expect([...state.seen].map((key) => key.split('\u0000')[1]).sort()).toEqual(['A1', 'A2', 'B1', 'C1']);
    expect([...state.live.keys()]).toEqual([]);
    const book = new AlertBook();
    for (const event of events) if (event.type !== 'WeatherAlertExpired') book.add(event.data.message as CapAlert);
    expect(book.active(new Date('2026-11-23T13:00:00Z')).map((alert) => alert.identifier)).toEqual(['B1']);
    // A late copy of the replaced A1 is not recorded again.
    expect(capAlertsDecider.decide({ type: 'RecordAlerts', messages: [(events[0] as { data: { message: CapAlert } }).data.message] }, state, new Date('2026-11-23T20:00:00Z'))).toEqual([]);
  });
});
