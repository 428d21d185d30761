import type { RecordedEvent } from '../../../platform/src/index.js';
import type { CustomerErasure, Notification } from '../domain/notification.js';

/**
 * What a context that notifies implements, and declares in its manifest as
 * `notifications: [{ token, notifies, from }]` (`token` resolves to this).
 * The fan-out follows `streamPrefixes`, asks `notificationOf` for each event
 * (pure: no I/O, no decryption) and `erasureOf` when the source erases data;
 * an attempt calls `payloadOf`.
 */
export interface NotificationSource {
  readonly streamPrefixes: readonly string[];
  notificationOf(event: RecordedEvent): Notification | undefined;
  /** The JSON body of a delivery; undefined when the event no longer exists (the customer's data was erased). */
  payloadOf(notification: Notification): Promise<Record<string, unknown> | undefined>;
  /** When `event` erased a customer's data: which of this source's notifications it took with it. */
  erasureOf?(event: RecordedEvent): CustomerErasure | undefined;
  /**
   * When the source last erased the customer's data (ISO 8601), or null. Asked
   * before every attempt, for notifications of every source: once a customer
   * is erased, no delivery naming them is sent for an event at or before the
   * erasure, whatever its type (docs/adr/0055), even in the moment before the
   * fan-out has recorded the erasure.
   */
  erasedAt?(accountId: string, customerId: string): Promise<string | null>;
}
