import type { Doc } from '../../platform/src/index.js';
import type { WebhookEventType } from '../../monitoring/src/index.js';
import type { AbandonReason, DeliveryError, DeliveryStatus } from './domain/delivery.js';

/**
 * The read model behind GET /v2/webhooks/deliveries, one document per logical
 * delivery (built by projections/webhook-deliveries). Declared here so the
 * query reads the collection without importing the projection.
 */
export const DELIVERIES_READ_MODEL = { name: 'webhook_deliveries', version: 1 } as const;
export const DELIVERIES_BY_ACCOUNT = 'by_account_created';
/** The newest attempts a document keeps; `attempt_count` still counts them all. */
export const ATTEMPTS_KEPT = 50;

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
  customer_id: string;
  /** Time of the event itself: the payload `timestamp`. */
  event_timestamp: string;
  /** When the delivery was first recorded; `days` filters and the list sorts on it. */
  created_at: string;
  updated_at: string;
  status: DeliveryStatus;
  attempt_count: number;
  next_attempt_at: string | null;
  abandoned_reason: AbandonReason | null;
  attempts: AttemptView[];
}

/** One item of GET /v2/webhooks/deliveries. */
export function deliveryView(doc: DeliveryDoc) {
  return {
    delivery_id: doc.id,
    event_type: doc.event_type,
    customer_id: doc.customer_id,
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
