import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EmbeddedEventStore, EmbeddedReadStore, EventRegistry, type NewEvent } from '../../../platform/src/index.js';
import { consentStream } from '../domain/consent.js';
import { locationStream, type LocationEvent } from '../domain/location.js';
import { monitoringEventTypes } from '../event-types.js';
import { MonitoringCustomerLocations, type LocationOpener } from './monitoring-customer-locations.js';

/** Stands in for the customer's data key: "sealed" is base64 JSON, and a shredded customer's events open to nothing. */
const shredded = new Set<string>();
const opener: LocationOpener = {
  open: async (event) => {
    const data = event.data as { customer_id: string; sealed: string };
    if (shredded.has(data.customer_id)) return undefined;
    return { type: event.type, data: { ...data, ...(JSON.parse(Buffer.from(data.sealed, 'base64').toString('utf8')) as object) } } as unknown as LocationEvent;
  },
};
const ping = (customer: string, recorded_at: string, lat: number): NewEvent => ({
  type: 'PingRecorded',
  data: { account_id: 'acct_a', customer_id: customer, key_id: 'k', ping_id: `p-${recorded_at}`, recorded_at, sealed: Buffer.from(JSON.stringify({ lat, lng: -0.187, accuracy_m: 12, device_id: null, received_at: recorded_at })).toString('base64') },
  metadata: { schema_version: 1 },
});
const granted = (customer: string): NewEvent => ({ type: 'ConsentGranted', data: { account_id: 'acct_a', customer_id: customer, purpose: 'unspecified', scope: ['location'], granted_at: '2026-11-01T00:00:00.000Z' }, metadata: { schema_version: 1 } });

describe('the customer-location port: recorded pings in a window', () => {
  it('answers the pings in the window, newest first, only while consent is granted and the key exists', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'customer-locations-'));
    const events = await EmbeddedEventStore.open(path.join(dir, 'events'));
    const readStore = await EmbeddedReadStore.open(path.join(dir, 'read-models'));
    try {
      const reader = new MonitoringCustomerLocations(events, new EventRegistry().register(...monitoringEventTypes), readStore, opener, { of: (account, customer) => `${account}:${customer}` });
      const since = new Date('2026-11-10T00:00:00.000Z');
      expect(await reader.recordedPings('acct_a', 'c1', since, 100)).toEqual({ consent: 'not_granted' });

      await events.append(consentStream('acct_a', 'c1'), [granted('c1')], 'no_stream');
      expect(await reader.recordedPings('acct_a', 'c1', since, 100)).toEqual({ consent: 'granted', pings: [] });
      await events.append(
        locationStream('acct_a', 'c1'),
        [ping('c1', '2026-11-01T10:00:00.000Z', 5.1), ping('c1', '2026-11-12T10:00:00.000Z', 5.2), ping('c1', '2026-11-11T10:00:00.000Z', 5.3), ping('c1', '2026-11-13T10:00:00.000Z', 5.4)],
        'no_stream',
      );
      // Each with when it reached the service (KYC weighs evidence delivered as it happened, ADR 30).
      expect(await reader.recordedPings('acct_a', 'c1', since, 100)).toEqual({
        consent: 'granted',
        pings: [
          { lat: 5.4, lng: -0.187, accuracy_m: 12, recorded_at: '2026-11-13T10:00:00.000Z', received_at: '2026-11-13T10:00:00.000Z' },
          { lat: 5.2, lng: -0.187, accuracy_m: 12, recorded_at: '2026-11-12T10:00:00.000Z', received_at: '2026-11-12T10:00:00.000Z' },
          { lat: 5.3, lng: -0.187, accuracy_m: 12, recorded_at: '2026-11-11T10:00:00.000Z', received_at: '2026-11-11T10:00:00.000Z' },
        ],
      });
      expect(await reader.recordedPings('acct_a', 'c1', since, 2)).toMatchObject({ consent: 'granted', pings: [{ lat: 5.4 }, { lat: 5.2 }] });

      shredded.add('c1');
      expect(await reader.recordedPings('acct_a', 'c1', since, 100)).toEqual({ consent: 'granted', pings: [] });
      await events.append(consentStream('acct_a', 'c1'), [{ type: 'ConsentRevoked', data: { account_id: 'acct_a', customer_id: 'c1', revoked_at: '2026-11-14T00:00:00.000Z' }, metadata: { schema_version: 1 } }], 0n);
      expect(await reader.recordedPings('acct_a', 'c1', since, 100)).toEqual({ consent: 'not_granted' });
    } finally {
      await readStore.close();
      await events.close();
    }
  });
});
