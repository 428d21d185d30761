import type { Doc, IndexSpec } from '../../../platform/src/index.js';
import type { AbandonReason, DeliveryError, DeliveryStatus } from '../domain/delivery.js';
import type { WebhookDeliveriesErased } from '../domain/delivery-erasure.js';
import type { StoredNotification, WebhookEventType } from '../domain/notification.js';

/**
 * The read model behind GET /v2/webhooks/deliveries, one document per logical
 * delivery (built by projections/webhook-deliveries). Declared here so the
 * query reads the collection without importing the projection. Version 2:
 * the customer is a keyed hash (and the sealed notification), erasure removes
 * a customer's deliveries, an exhausted schedule says so. Version 3 (issue
 * 47): an erasure removes the customer's deliveries of every type, those of
 * erasures recorded before included (`webhook_deliveries_v2` is no longer read
 * and may be dropped).
 */
export const DELIVERIES_READ_MODEL = { name: 'webhook_deliveries', version: 3 } as const;
export const DELIVERIES_BY_ACCOUNT = 'by_account_created';
/** A customer's deliveries (of one type, or of all: the index's prefix), for erasure. */
export const DELIVERIES_BY_CUSTOMER = 'by_customer_type';
/** Deliveries stored before delivery schema version 2 name the customer in the clear; erasure finds them by that. */
export const DELIVERIES_BY_LEGACY_CUSTOMER = 'by_legacy_customer';
export const DELIVERIES_INDEXES: IndexSpec[] = [
  { name: DELIVERIES_BY_ACCOUNT, fields: ['account_id', 'created_at'] },
  { name: DELIVERIES_BY_CUSTOMER, fields: ['account_id', 'customer_hash', 'event_type'] },
  { name: DELIVERIES_BY_LEGACY_CUSTOMER, fields: ['account_id', 'legacy_customer_id'] },
];
/** The newest attempts a document keeps; `attempt_count` still counts them all. */
export const ATTEMPTS_KEPT = 50;

/** Why a delivery will not be attempted again by itself: abandoned, or failed with its schedule used up. */
export type StoppedReason = AbandonReason | 'retries_exhausted';

export interface AttemptView {
  attempt: number;
  /** The X-Webhook-Delivery header that attempt carried. */
  attempt_id: string;
  attempted_at: string;
  manual: boolean;
  outcome: 'delivered' | 'failed';
  status_code: number | null;
  error: DeliveryError | null;
  duration_ms: number;
}

export interface DeliveryDoc extends Doc {
  /** The delivery id. */
  id: string;
  account_id: string;
  event_type: WebhookEventType;
  /** Keyed hash of the customer id; null for a delivery stored before schema version 2. */
  customer_hash: string | null;
  /** Only for a delivery stored before schema version 2, which named the customer in the clear. */
  legacy_customer_id: string | null;
  /** As the delivery events hold it: the customer id is opened from it for the listing. */
  notification: StoredNotification;
  /** Time of the event itself: the payload `timestamp`. */
  event_timestamp: string;
  /** When the delivery was first recorded; `days` filters and the list sorts on it. */
  created_at: string;
  updated_at: string;
  status: DeliveryStatus;
  attempt_count: number;
  next_attempt_at: string | null;
  abandoned_reason: StoppedReason | null;
  attempts: AttemptView[];
}

/**
 * What the collection remembers of a customer's erasure, so an attempt
 * recorded after it (one already under way when the data went) does not bring
 * a delivery of the erased data back. Its null account keeps it out of every
 * account's listing.
 */
export interface ErasureMarkerDoc extends Doc {
  id: string;
  account_id: null;
  customer_hash: null;
  legacy_customer_id: null;
  event_type: null;
  created_at: null;
  erasure: Pick<WebhookDeliveriesErased['data'], 'account_id' | 'customer_hash' | 'event_types' | 'erased_at'>;
}

export type WebhookDeliveriesDoc = DeliveryDoc | ErasureMarkerDoc;

export function erasureMarkerId(accountId: string, customerHash: string): string {
  return `erasure:${accountId}:${customerHash}`;
}

/** One item of GET /v2/webhooks/deliveries; `customer_id` is opened from the sealed notification (null if it cannot be). */
export function deliveryView(doc: DeliveryDoc, customerId: string | null) {
  return {
    delivery_id: doc.id,
    event_type: doc.event_type,
    customer_id: customerId,
    event_timestamp: doc.event_timestamp,
    status: doc.status,
    created_at: doc.created_at,
    updated_at: doc.updated_at,
    attempt_count: doc.attempt_count,
    next_attempt_at: doc.next_attempt_at,
    abandoned_reason: doc.abandoned_reason,
    attempts: doc.attempts,
  };
}
