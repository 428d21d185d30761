import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitoringEventTypes, type LocationEvent } from '../../../monitoring/src/index.js';
import { MonitoringCustomerLocations, type LocationOpener } from '../../../monitoring/src/testing/location-streams.js';
import { EmbeddedEventStore, EmbeddedReadStore, EventRegistry } from '../../../platform/src/index.js';
import { bankingEventTypes } from '../event-types.js';
import { BorrowerSightings } from '../public/borrower-sightings.view.js';

/** Location events stored in the clear stand in for sealed ones: `open` answers them as they are (the sealing has its own tests). */
const clearSealing: LocationOpener = { open: async (event) => ({ type: event.type, data: event.data }) as unknown as LocationEvent };

describe('borrower sightings view', () => {
  it("follows a borrower's pings (the newest wins), drift, and drops them at erasure; others' pings are not opened", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'borrower-sightings-'));
    const events = await EmbeddedEventStore.open(path.join(dir, 'events'));
    const readStore = await EmbeddedReadStore.open(path.join(dir, 'read-models'));
    const registry = new EventRegistry().register(...monitoringEventTypes, ...bankingEventTypes);
    // Monitoring's own port over these events; its drift_state is empty, so no borrower was seen before the view follows.
    const locations = new MonitoringCustomerLocations(events, registry, readStore, clearSealing, { of: (account, customer) => `${account}:${customer}` });
    // The registration below is stored in the clear (as before sealing): the view takes its borrower from the event either way.
    const view = new BorrowerSightings(events, registry, readStore, locations, { borrowerOf: () => undefined });
    await view.follower.start();
    try {
      const ids = { account_id: 'acct_a', customer_id: 'cust-1' };
      const ping = (lat: number, recorded_at: string) => ({ type: 'PingRecorded', data: { ...ids, lat, lng: -0.2, accuracy_m: 10, recorded_at, device_id: null, ping_id: recorded_at, received_at: recorded_at } });
      const append = async (stream: string, event: { type: string; data: Record<string, unknown> }) => {
        const { position } = await events.append(stream, [{ ...event, metadata: { schema_version: 1 } }], 'any');
        await view.follower.waitFor(position, 5000);
      };
      await append('location-acct_a:cust-1', ping(5.0, '2026-11-23T09:00:00.000Z'));
      // Not a borrower yet: nothing held.
      expect(view.get('acct_a', 'cust-1')).toBeUndefined();
      await append('collection_loan-acct_a:loan-1', { type: 'CollectionLoanRegistered', data: { ...ids, loan_id: 'loan-1', zone: { type: 'point', lat: 5, lng: -0.2, radius_m: 300 }, anchor: { lat: 5, lng: -0.2 }, expected_collection_days: null, registered_at: '2026-11-23T09:30:00.000Z' } });
      expect(view.get('acct_a', 'cust-1')).toEqual({ position: null, drifting: false });
      await append('location-acct_a:cust-1', ping(5.1, '2026-11-23T10:00:00.000Z'));
      await append('location-acct_a:cust-1', ping(5.2, '2026-11-23T09:59:00.000Z'));
      expect(view.get('acct_a', 'cust-1')?.position).toMatchObject({ lat: 5.1, recorded_at: '2026-11-23T10:00:00.000Z' });
      await append('location-acct_a:cust-1', { type: 'DriftStarted', data: { ...ids, occurred_at: '2026-11-23T10:00:00.000Z' } });
      expect(view.get('acct_a', 'cust-1')?.drifting).toBe(true);
      await append('consent-acct_a:cust-1', { type: 'CustomerDataErased', data: { ...ids, erased_at: '2026-11-23T11:00:00.000Z', erased_by: 'k', events_erased: 4 } });
      expect(view.get('acct_a', 'cust-1')).toEqual({ position: null, drifting: false });
    } finally {
      await view.follower.stop();
      await readStore.close();
      await events.close();
    }
  });
});
