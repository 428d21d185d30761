import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { latLngToCell } from 'h3-js';
import { EmbeddedDataKeyVault, EmbeddedEventStore, EventRegistry, SecretBox, type EventStore } from '../../platform/src/index.js';
import type { Notification } from '../../webhooks/src/index.js';
import type { DriftStarted } from './domain/location.js';
import { LocationSealing } from './location-stream/location-sealing.js';
import { MonitoringNotifications } from './monitoring-notifications.js';

describe('monitoring notification source', () => {
  let events: EventStore;
  let vault: EmbeddedDataKeyVault;
  let sealing: LocationSealing;
  const home = latLngToCell(5.5497, -0.2107, 9);
  const current = latLngToCell(5.5755, -0.2301, 9);

  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'monitoring-notifications-'));
    events = await EmbeddedEventStore.open(path.join(dir, 'events'));
    vault = await EmbeddedDataKeyVault.open(dir, SecretBox.fromKey(randomBytes(32)));
    sealing = new LocationSealing(vault);
  });
  afterAll(async () => {
    await vault.close();
    await events.close();
  });

  /** A DriftStarted stored at schema version 1, when `distance_hops` was called `hops`: sealed, as every location field is. */
  async function storeVersion1Drift(customerId: string): Promise<Notification> {
    const stream = `location-acct_1:${customerId}`;
    const key = await sealing.keyFor('acct_1', customerId);
    const v1 = { type: 'DriftStarted', data: { account_id: 'acct_1', customer_id: customerId, home_cell: home, current_cell: current, hops: 4, occurred_at: '2026-11-22T09:00:00.000Z' } };
    const stored = sealing.seal(key, stream, { ...(v1 as unknown as DriftStarted), metadata: { schema_version: 1 } }, 'pseudonym-of-the-customer');
    await events.append(stream, [stored], 'any');
    const [recorded] = await events.readStream(stream);
    return new MonitoringNotifications(events, new EventRegistry(), sealing).notificationOf(recorded)!;
  }

  it('opens a sealed event before upcasting it: an upcaster sees the fields it was written for', async () => {
    const registry = new EventRegistry().register({ type: 'DriftStarted', version: 2, upcast: ({ hops, ...rest }) => ({ ...rest, distance_hops: hops }) });
    const source = new MonitoringNotifications(events, registry, sealing);
    const notification = await storeVersion1Drift('c-upcast');
    expect(notification).toMatchObject({ account_id: 'acct_1', customer_id: 'c-upcast', event_type: 'drift', occurred_at: '2026-11-22T09:00:00.000Z' });
    expect(await source.payloadOf(notification)).toMatchObject({ event: 'drift', customer_id: 'c-upcast', distance_hops: 4, timestamp: '2026-11-22T09:00:00.000Z' });
  });

  it('has no payload once the customer is erased (key destroyed), and reports the erasure of drift and geofence_breach only', async () => {
    const source = new MonitoringNotifications(events, new EventRegistry(), sealing);
    const notification = await storeVersion1Drift('c-erased');
    await sealing.shred('acct_1', 'c-erased');
    expect(await source.payloadOf(notification)).toBeUndefined();
    const erasure = { id: 'e', streamName: 'consent-acct_1:c-erased', type: 'CustomerDataErased', data: { account_id: 'acct_1', customer_id: 'c-erased', erased_at: '2026-11-22T10:00:00.000Z', erased_by: 'k', events_erased: 3 }, metadata: {}, revision: 2n, position: 9n, createdAt: new Date() };
    expect(source.erasureOf(erasure)).toEqual({ account_id: 'acct_1', customer_id: 'c-erased', erased_at: '2026-11-22T10:00:00.000Z', event_types: ['drift', 'geofence_breach'] });
    expect(source.erasureOf({ ...erasure, type: 'ConsentRevoked' })).toBeUndefined();
  });
});
