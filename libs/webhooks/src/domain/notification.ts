/**
 * The notification contract of the webhooks context: which event types a
 * webhook can carry, and what a context that produces them hands over. Each
 * context that notifies contributes a NotificationSource (declared in its
 * manifest's `notifications`); webhooks know no context by name.
 */

/**
 * interface.md, "Webhook configuration (input)" and "Events"; plus
 * `reverification.completed` (the banking context's re-verification
 * schedules: a scheduled run recorded its result; README "Banking") and
 * `job.completed` (the jobs context: a job finished; docs/guides/jobs.md).
 */
export const WEBHOOK_EVENT_TYPES = ['drift', 'geofence_breach', 'delivery.confirmed', 'consent_revoked', 'reverification.completed', 'job.completed'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** interface.md: event_types defaults to an array holding only drift. */
export const DEFAULT_WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = ['drift'];

/**
 * Types a client may subscribe to (interface.md lists them) that nothing
 * produces yet: start-up accepts them without a source. Empty since the
 * identity context's proof-of-delivery receipts produce delivery.confirmed.
 */
export const UNSOURCED_WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = [];

/**
 * A stored event that fires a webhook, as its source describes it: in memory
 * only. What is queued and recorded is its sealed form (SealedNotification),
 * which names the customer by a keyed hash. The delivery body is built from
 * the stored event at attempt time (`payloadOf`), which is also how an erased
 * customer's pending deliveries die: their event is gone.
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
 * A notification as job data and delivery events hold it: no customer id and
 * no stream name (which holds the customer id) in the clear. `customer_hash`
 * finds a customer's deliveries when their data is erased; `sealed` holds the
 * customer id, stream and revision under the platform SecretBox, bound to the
 * account, event type and event id.
 */
export interface SealedNotification {
  account_id: string;
  event_type: WebhookEventType;
  occurred_at: string;
  event_id: string;
  customer_hash: string;
  sealed: string;
}

/** What job data and delivery events hold: sealed, or clear as stored before delivery schema version 2 (still read). */
export type StoredNotification = SealedNotification | Notification;

export function isSealed(notification: StoredNotification): notification is SealedNotification {
  return 'sealed' in notification;
}

/**
 * A stored event that erased a customer's data (ADR 12): the notifications of
 * `event_types` were built from it, so their deliveries go from the history
 * and their pending attempts find nothing to send.
 */
export interface CustomerErasure {
  account_id: string;
  customer_id: string;
  event_types: readonly WebhookEventType[];
  erased_at: string;
}
