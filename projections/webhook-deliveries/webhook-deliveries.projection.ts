import type { Notification } from '../../libs/monitoring/src/index.js';
import type { Projection, RecordedEvent } from '../../libs/platform/src/index.js';
import {
  ATTEMPTS_KEPT,
  DELIVERIES_BY_ACCOUNT,
  DELIVERIES_READ_MODEL,
  DELIVERY_EVENT_TYPES,
  type DeliveryDoc,
  type DeliveryEvent,
} from '../../libs/webhooks/src/index.js';

/** A delivery's document as its first recorded event creates it. */
function created(id: string, notification: Notification, at: string): DeliveryDoc {
  return {
    id,
    account_id: notification.account_id,
    event_type: notification.event_type,
    customer_id: notification.customer_id,
    event_timestamp: notification.occurred_at,
    created_at: at,
    updated_at: at,
    status: 'attempted',
    attempt_count: 0,
    next_attempt_at: null,
    abandoned_reason: null,
    attempts: [],
  };
}

/** Pure: the document after one event; undefined input is a delivery not seen yet. */
export function evolveDeliveryDoc(current: DeliveryDoc | undefined, event: DeliveryEvent): DeliveryDoc | null {
  switch (event.type) {
    case 'WebhookDeliveryAttempted': {
      const { data } = event;
      const doc = current ?? created(data.delivery_id, data.notification, data.attempted_at);
      const attempt = {
        attempt: data.attempt,
        attempt_id: data.attempt_id,
        attempted_at: data.attempted_at,
        manual: data.manual,
        outcome: data.outcome,
        status_code: data.status_code,
        error: data.error,
        duration_ms: data.duration_ms,
      };
      return {
        ...doc,
        status: data.outcome,
        updated_at: data.attempted_at,
        attempt_count: data.attempt,
        next_attempt_at: data.next_attempt_at,
        abandoned_reason: null,
        attempts: [...doc.attempts, attempt].slice(-ATTEMPTS_KEPT),
      };
    }
    case 'WebhookDeliveryAbandoned': {
      const { data } = event;
      const doc = current ?? created(data.delivery_id, data.notification, data.abandoned_at);
      return { ...doc, status: 'abandoned', updated_at: data.abandoned_at, next_attempt_at: null, abandoned_reason: data.reason };
    }
    case 'WebhookRetryRequested':
      // A request can only follow a recorded event; without one there is nothing to show.
      return current ? { ...current, status: 'attempted', updated_at: event.data.requested_at, next_attempt_at: event.data.requested_at } : null;
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

/** GET /v2/webhooks/deliveries: one document per delivery with its attempts, by account and creation time. */
export const webhookDeliveriesProjection: Projection<DeliveryDoc> = {
  ...DELIVERIES_READ_MODEL,
  streamPrefixes: ['webhook_delivery-'],
  handles: DELIVERY_EVENT_TYPES,
  indexes: [{ name: DELIVERIES_BY_ACCOUNT, fields: ['account_id', 'created_at'] }],
  async apply(event: RecordedEvent, collection) {
    const domainEvent = { type: event.type, data: event.data } as unknown as DeliveryEvent;
    await collection.apply(String(event.data.delivery_id), event.position, (current) => evolveDeliveryDoc(current, domainEvent));
  },
};
