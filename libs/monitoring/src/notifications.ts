import type { RecordedEvent } from '../../platform/src/index.js';

/** interface.md, "Webhook configuration (input)" and "Events". */
export const WEBHOOK_EVENT_TYPES = ['drift', 'geofence_breach', 'delivery.confirmed', 'consent_revoked'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** interface.md: event_types defaults to an array holding only drift. */
export const DEFAULT_WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = ['drift'];

/**
 * A stored event that fires a webhook, described without any location, so it
 * may sit in a job queue or a read model that consent erasure never has to
 * purge. The delivery body is built from the stored event at attempt time
 * (`payloadOf`), which is also how an erased customer's pending deliveries
 * die: their event is gone.
 */
export interface Notification {
  account_id: string;
  customer_id: string;
  event_type: WebhookEventType;
  /** ISO 8601 UTC time of the event itself: the payload `timestamp`, never the attempt time. */
  occurred_at: string;
  /** The stored event the payload is read from. */
  stream: string;
  /** Stream revision as decimal text (job data and documents are JSON). */
  revision: string;
  event_id: string;
}

/**
 * What the webhook fan-out asks the monitoring context. It subscribes to the
 * log with `streamPrefixes`, asks `notificationOf` for each event (pure, no
 * I/O, no decryption), and calls `payloadOf` when an attempt is made.
 */
export interface NotificationSource {
  readonly streamPrefixes: readonly string[];
  notificationOf(event: RecordedEvent): Notification | undefined;
  /** The JSON body of a delivery; undefined when the event no longer exists (the customer's data was erased). */
  payloadOf(notification: Notification): Promise<Record<string, unknown> | undefined>;
}

export const NOTIFICATION_SOURCE = Symbol('NotificationSource');
