import { createHmac } from 'node:crypto';
import type { SecretBox } from '../../../platform/src/index.js';
import { isSealed, type Notification, type SealedNotification, type StoredNotification } from '../domain/notification.js';

/** 128 bits of HMAC-SHA-256: plenty to tell customers apart, and short in every document. */
const HASH_HEX_LENGTH = 32;

/**
 * How a notification is kept out of the clear in the queue and the delivery
 * streams (issue #10, item 6): the customer becomes a keyed hash (HMAC under
 * a key derived from DATA_ENCRYPTION_KEY, so every process computes the same
 * one and nobody without the key can test a guessed id against it), and the
 * customer id with the stream it came from are sealed, bound to the account,
 * event type and event id. Erasure finds a customer's deliveries by the hash.
 */
export class NotificationCipher {
  private readonly hashKey: Buffer;

  constructor(private readonly box: SecretBox) {
    this.hashKey = box.deriveKey('webhooks:customer-hash');
  }

  customerHash(accountId: string, customerId: string): string {
    return createHmac('sha256', this.hashKey).update(`${accountId}\n${customerId}`, 'utf8').digest('hex').slice(0, HASH_HEX_LENGTH);
  }

  seal(notification: Notification): SealedNotification {
    const { account_id, customer_id, event_type, occurred_at, stream, revision, event_id } = notification;
    return {
      account_id,
      event_type,
      occurred_at,
      event_id,
      customer_hash: this.customerHash(account_id, customer_id),
      sealed: this.box.seal(JSON.stringify({ customer_id, stream, revision }), associatedData(notification)),
    };
  }

  /** The notification in the clear; throws SealedSecretError when DATA_ENCRYPTION_KEY changed since it was sealed. */
  open(stored: StoredNotification): Notification {
    if (!isSealed(stored)) return stored;
    const { account_id, event_type, occurred_at, event_id } = stored;
    const { customer_id, stream, revision } = JSON.parse(this.box.open(stored.sealed, associatedData(stored))) as Pick<Notification, 'customer_id' | 'stream' | 'revision'>;
    return { account_id, customer_id, event_type, occurred_at, stream, revision, event_id };
  }

  /** The customer id for a listing; null when it cannot be opened any more. */
  customerOf(stored: StoredNotification): string | null {
    try {
      return this.open(stored).customer_id;
    } catch {
      return null;
    }
  }
}

function associatedData(notification: Pick<Notification, 'account_id' | 'event_type' | 'event_id'>): string {
  return `webhook-notification|${notification.account_id}|${notification.event_type}|${notification.event_id}`;
}
