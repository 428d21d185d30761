import { randomBytes } from 'node:crypto';
import { SealedSecretError, SecretBox } from '../../../platform/src/index.js';
import { NotificationCipher } from './notification-cipher.js';
import type { Notification } from '../domain/notification.js';

const notification: Notification = {
  account_id: 'acct_1',
  customer_id: 'cust-ama-mensah',
  event_type: 'drift',
  occurred_at: '2026-11-22T08:00:00.000Z',
  stream: 'location-acct_1:cust-ama-mensah',
  revision: '7',
  event_id: '6f1c2d9e-0000-4000-8000-000000000001',
};

describe('notification cipher', () => {
  const key = randomBytes(32);
  const cipher = new NotificationCipher(SecretBox.fromKey(key));

  it('seals the customer and the stream away, and opens them again', () => {
    const sealed = cipher.seal(notification);
    expect(JSON.stringify(sealed)).not.toContain('cust-ama-mensah');
    expect(sealed).toMatchObject({ account_id: 'acct_1', event_type: 'drift', occurred_at: notification.occurred_at, event_id: notification.event_id });
    expect(cipher.open(sealed)).toEqual(notification);
    expect(cipher.customerOf(sealed)).toBe('cust-ama-mensah');
    // A notification stored in the clear (before schema version 2) reads as it is.
    expect(cipher.open(notification)).toBe(notification);
  });

  it('hashes a customer the same in every process holding the key, differently under another key or account', () => {
    const hash = cipher.customerHash('acct_1', 'cust-ama-mensah');
    expect(hash).toMatch(/^[0-9a-f]{32}$/);
    expect(new NotificationCipher(SecretBox.fromKey(key)).customerHash('acct_1', 'cust-ama-mensah')).toBe(hash);
    expect(new NotificationCipher(SecretBox.fromKey(randomBytes(32))).customerHash('acct_1', 'cust-ama-mensah')).not.toBe(hash);
    expect(cipher.customerHash('acct_2', 'cust-ama-mensah')).not.toBe(hash);
    expect(cipher.seal(notification).customer_hash).toBe(hash);
  });

  it('binds the sealed part to the account, type and event: moved onto another, it does not open', () => {
    const sealed = cipher.seal(notification);
    expect(() => cipher.open({ ...sealed, account_id: 'acct_2' })).toThrow(SealedSecretError);
    expect(() => cipher.open({ ...sealed, event_type: 'geofence_breach' })).toThrow(SealedSecretError);
    expect(cipher.customerOf({ ...sealed, event_id: 'other' })).toBeNull();
  });
});
