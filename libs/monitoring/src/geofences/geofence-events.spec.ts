import { readFileSync } from 'node:fs';
import path from 'node:path';
import { EventRegistry, type RecordedEvent } from '../../../platform/src/index.js';
import { monitoringEventTypes } from '../event-types.js';
import { evolveGeofence, GEOFENCE_EVENT_TYPES, initialGeofenceState, shapeOf, type GeofenceEvent } from './domain/geofence.js';

/** Stored JSON from schema version 1 must still fold into today's state (style.md: upcasters against fixtures). */
const fixture = JSON.parse(readFileSync(path.join(import.meta.dirname, '__fixtures__/geofence-events.v1.json'), 'utf8')) as {
  events: Array<{ type: string; metadata: Record<string, unknown>; data: Record<string, unknown> }>;
};

describe('geofence event types', () => {
  const registry = new EventRegistry().register(...monitoringEventTypes);
  const events = fixture.events.map((stored, index) => {
    const event = registry.upcast({
      id: `fixture-${index}`,
      streamName: 'geofence-acct_fixture:gf_0123456789abcdef0123456789abcdef',
      type: stored.type,
      data: stored.data,
      metadata: stored.metadata,
      revision: BigInt(index),
      position: BigInt(index + 1),
      createdAt: new Date(0),
    } satisfies RecordedEvent);
    return { type: event.type, data: event.data } as unknown as GeofenceEvent;
  });

  it('registers every geofence event type with a version', () => {
    for (const type of GEOFENCE_EVENT_TYPES) expect(registry.version(type)).toBe(1);
  });

  it('reads a version-1 creation into a fence the index can test, and the deletion after it', () => {
    const active = evolveGeofence(initialGeofenceState, events[0]);
    expect(active.status).toBe('active');
    if (active.status !== 'active') return;
    expect(shapeOf(active.fence).contains(6.695, -1.625)).toBe(true);
    expect(shapeOf(active.fence).contains(6.705, -1.625)).toBe(false);
    expect(events.reduce(evolveGeofence, initialGeofenceState)).toMatchObject({ status: 'deleted', deleted_at: '2026-11-22T02:00:00.000Z' });
  });
});
