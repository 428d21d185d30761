import { EventRegistry } from '../../../platform/src/index.js';
import { readStoredEvents, upcastStoredEvents } from '../../../../test/support/stored-events.js';
import { monitoringEventTypes } from '../event-types.js';
import { geofenceView } from './public/geofence-view.js';
import { evolveGeofence, GEOFENCE_EVENT_TYPES, initialGeofenceState, shapeOf, type GeofenceEvent } from './domain/geofence.js';

/** Stored JSON from schema version 1 must still fold into today's state (style.md: upcasters against fixtures). */
const stored = readStoredEvents(new URL('./__fixtures__/geofence-events.v1.json', import.meta.url));

describe('geofence event types', () => {
  const registry = new EventRegistry().register(...monitoringEventTypes);
  const events = upcastStoredEvents<GeofenceEvent>(registry, stored, 'geofence-acct_fixture:gf_0123456789abcdef0123456789abcdef');

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

  it('reads a version-1 isochrone creation into a polygon fence that keeps how it was made', () => {
    const isochrone = readStoredEvents(new URL('./__fixtures__/geofence-isochrone-created.v1.json', import.meta.url));
    const [created] = upcastStoredEvents<GeofenceEvent>(registry, isochrone, 'geofence-acct_fixture:gf_fedcba9876543210fedcba9876543210');
    const active = evolveGeofence(initialGeofenceState, created);
    expect(active).toMatchObject({ status: 'active', fence: { fence_type: 'isochrone', isochrone: { minutes: 10, mode: 'motor_scooter', h3_resolution: 9 } } });
    if (active.status !== 'active') return;
    expect(shapeOf(active.fence).contains(5.5503, -0.2076)).toBe(true);
    expect(shapeOf(active.fence).contains(5.56, -0.2076)).toBe(false);
    expect(geofenceView(active.fence)).toMatchObject({ fence_type: 'isochrone', center: { lat: 5.5503, lng: -0.2076 }, isochrone: { minutes: 10 } });
  });
});
