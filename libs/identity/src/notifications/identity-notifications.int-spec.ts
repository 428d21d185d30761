import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { customerDataKeySubject, EmbeddedDataKeyVault, EmbeddedEventStore, EventRegistry, SecretBox, type NewEvent } from '../../../platform/src/index.js';
import { IdentitySealing } from '../sealing/identity-sealing.js';
import { deliveryStream, type DeliveryConfirmed } from '../domain/delivery.js';
import { identityEventTypes } from '../event-types.js';
import { IdentityNotifications } from './identity-notifications.js';

const confirmation: DeliveryConfirmed['data'] = {
  account_id: 'acct_a',
  delivery_id: 'dlv-1',
  customer_id: null,
  receipt_id: 'rcpt_1',
  kid: 'k1',
  receipt: 'h.p.s',
  courier: { lat: 5.6037, lng: -0.187, accuracy_m: 8, recorded_at: '2026-11-23T12:00:00.000Z', device_hash: null },
  location_code: '6Q3HQKQ4ZA',
  address: null,
  recipient_name: null,
  photo_sha256: null,
  provenance: { source: 'device_gps', provider: 'caller', accuracy_meters: 8, confidence: 0.68, verified_at: '2026-11-23T12:00:01.000Z' },
  confirmed_at: '2026-11-23T12:00:01.000Z',
};

describe('identity webhook notifications', () => {
  it('turns DeliveryConfirmed into a delivery.confirmed notification without any position, and builds the payload from the stored event', async () => {
    const events = await EmbeddedEventStore.open(mkdtempSync(path.join(tmpdir(), 'identity-notifications-')));
    const vault = await EmbeddedDataKeyVault.open(mkdtempSync(path.join(tmpdir(), 'identity-notifications-keys-')), SecretBox.fromKey(randomBytes(32)));
    try {
      const registry = new EventRegistry().register(...identityEventTypes);
      const source = new IdentityNotifications(events, registry, vault);
      const stream = deliveryStream('acct_a', 'dlv-1');
      const event: NewEvent = { type: 'DeliveryConfirmed', data: { ...confirmation }, metadata: { schema_version: 1 } };
      await events.append(stream, [event], 'no_stream');
      const [stored] = await events.readStream(stream);

      const notification = source.notificationOf(stored)!;
      expect(notification).toEqual({
        account_id: 'acct_a',
        customer_id: '',
        event_type: 'delivery.confirmed',
        occurred_at: '2026-11-23T12:00:01.000Z',
        stream,
        revision: '0',
        event_id: stored.id,
      });
      expect(JSON.stringify(notification)).not.toContain('5.6037');
      expect(source.streamPrefixes.some((prefix) => stream.startsWith(prefix))).toBe(true);
      expect(source.notificationOf({ ...stored, type: 'SigningKeyRotated' })).toBeUndefined();

      expect(await source.payloadOf(notification)).toMatchObject({ event: 'delivery.confirmed', delivery_id: 'dlv-1', customer_id: null, receipt: 'h.p.s', address_code: null, timestamp: '2026-11-23T12:00:01.000Z' });
      // Not the stored event (another id, or gone): nothing to send.
      expect(await source.payloadOf({ ...notification, event_id: 'other' })).toBeUndefined();
      expect(await source.payloadOf({ ...notification, stream: deliveryStream('acct_a', 'missing') })).toBeUndefined();

      // Naming a customer, it is stored sealed under the customer's key: the payload opens it, until an erasure destroys the key.
      const named = deliveryStream('acct_a', 'dlv-2');
      const sealed = await (await IdentitySealing.open(vault)).seal(named, { type: 'DeliveryConfirmed', data: { ...confirmation, delivery_id: 'dlv-2', customer_id: 'cust-1' }, metadata: { schema_version: 2 } });
      await events.append(named, [sealed], 'no_stream');
      const [storedSealed] = await events.readStream(named);
      expect(JSON.stringify(storedSealed.data)).not.toContain('5.6037');
      const sealedNotification = source.notificationOf(storedSealed)!;
      expect(sealedNotification).toMatchObject({ customer_id: 'cust-1', occurred_at: '2026-11-23T12:00:01.000Z' });
      expect(await source.payloadOf(sealedNotification)).toMatchObject({ delivery_id: 'dlv-2', customer_id: 'cust-1', receipt: 'h.p.s', location_code: '6Q3HQKQ4ZA' });
      await vault.destroy(customerDataKeySubject('acct_a', 'cust-1'));
      expect(await source.payloadOf(sealedNotification)).toBeUndefined();
    } finally {
      await events.close();
      await vault.close();
    }
  });
});
