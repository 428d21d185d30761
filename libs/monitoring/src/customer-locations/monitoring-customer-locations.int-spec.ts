import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EmbeddedDataKeyVault, EmbeddedEventStore, EmbeddedReadStore, EventRegistry, SecretBox, type DataKeyVault, type NewEvent } from '../../../platform/src/index.js';
import { consentStream } from '../domain/consent.js';
import { locationStream, type LocationEvent } from '../domain/location.js';
import { monitoringEventTypes } from '../event-types.js';
import { LocationSealing } from '../location-stream/location-sealing.js';
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

  it('opens pings sealed under the customer key, finding the key once per read, and nothing once the key is destroyed', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'customer-locations-sealed-'));
    const events = await EmbeddedEventStore.open(path.join(dir, 'events'));
    const readStore = await EmbeddedReadStore.open(path.join(dir, 'read-models'));
    const embedded = await EmbeddedDataKeyVault.open(dir, SecretBox.fromKey(Buffer.alloc(32, 3)));
    let finds = 0;
    const vault: DataKeyVault = {
      obtain: (subject) => embedded.obtain(subject),
      find: (subject, keyId) => {
        finds++;
        return embedded.find(subject, keyId);
      },
      destroy: (subject) => embedded.destroy(subject),
      ping: () => embedded.ping(),
      close: () => embedded.close(),
    };
    try {
      const sealing = new LocationSealing(vault);
      const reader = new MonitoringCustomerLocations(events, new EventRegistry().register(...monitoringEventTypes), readStore, sealing, { of: (account, customer) => `${account}:${customer}` });
      const stream = locationStream('acct_a', 'c2');
      await events.append(consentStream('acct_a', 'c2'), [granted('c2')], 'no_stream');
      const key = await sealing.keyFor('acct_a', 'c2');
      // 1,200 pings an hour apart, oldest first: more than two pages of the backwards read.
      const start = Date.parse('2026-10-01T00:00:00.000Z');
      const stored = Array.from({ length: 1200 }, (_, index) => {
        const recorded_at = new Date(start + index * 3_600_000).toISOString();
        const data = { account_id: 'acct_a', customer_id: 'c2', lat: 5 + index / 10_000, lng: -0.187, accuracy_m: 10, recorded_at, device_id: null, ping_id: `p-${index}`, received_at: recorded_at };
        return sealing.seal(key, stream, { type: 'PingRecorded', data, metadata: { schema_version: 1 } }, 'pseudonym');
      });
      expect(stored[0].data).not.toHaveProperty('lat');
      await events.append(stream, stored, 'no_stream');

      finds = 0;
      const found = await reader.recordedPings('acct_a', 'c2', new Date(start + 100 * 3_600_000), 5000);
      expect(finds).toBe(1);
      expect(found.consent === 'granted' && found.pings.length).toBe(1100);
      expect(found.consent === 'granted' && found.pings.slice(0, 2)).toEqual([
        { lat: 5 + 1199 / 10_000, lng: -0.187, accuracy_m: 10, recorded_at: new Date(start + 1199 * 3_600_000).toISOString(), received_at: new Date(start + 1199 * 3_600_000).toISOString() },
        { lat: 5 + 1198 / 10_000, lng: -0.187, accuracy_m: 10, recorded_at: new Date(start + 1198 * 3_600_000).toISOString(), received_at: new Date(start + 1198 * 3_600_000).toISOString() },
      ]);
      // The customer's copy pages through the same streams, opened alike.
      const copy = await reader.customerRecords('acct_a', 'c2', null, 300);
      expect(copy.history).toHaveLength(300);
      expect(copy.history[0]).toMatchObject({ type: 'PingRecorded', lat: 5, recorded_at: new Date(start).toISOString() });

      await sealing.shred('acct_a', 'c2');
      expect(await reader.recordedPings('acct_a', 'c2', new Date(start), 5000)).toEqual({ consent: 'granted', pings: [] });
      expect(await reader.customerRecords('acct_a', 'c2', null, 300)).toMatchObject({ history: [], unreadable: 300 });
    } finally {
      await vault.close();
      await readStore.close();
      await events.close();
    }
  });
});
