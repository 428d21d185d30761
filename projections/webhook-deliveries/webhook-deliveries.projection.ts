import type { Projection, ReadCollection, RecordedEvent } from '../../libs/platform/src/index.js';
import {
  ATTEMPTS_KEPT,
  DELIVERIES_BY_CUSTOMER,
  DELIVERIES_INDEXES,
  DELIVERIES_READ_MODEL,
  DELIVERY_ERASURE_EVENT_TYPES,
  DELIVERY_EVENT_TYPES,
  erasureMarkerId,
  isSealed,
  type DeliveryDoc,
  type DeliveryEvent,
  type ErasureMarkerDoc,
  type StoredNotification,
  type WebhookDeliveriesDoc,
  type WebhookDeliveriesErased,
} from '../../libs/webhooks/src/index.js';

/** A delivery's document as its first recorded event creates it. */
function created(id: string, notification: StoredNotification, at: string): DeliveryDoc {
  return {
    id,
    account_id: notification.account_id,
    event_type: notification.event_type,
    customer_hash: isSealed(notification) ? notification.customer_hash : null,
    legacy_customer_id: isSealed(notification) ? null : notification.customer_id,
    notification,
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

/** Pure: the document after one event; undefined input is a delivery not seen yet, null output deletes it. */
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
        // Issue #10, item 12c: a failure with no next attempt is the end of the schedule; the delivery stays failed (a manual re-send may follow).
        abandoned_reason: data.outcome === 'failed' && data.next_attempt_at === null ? 'retries_exhausted' : null,
        attempts: [...doc.attempts, attempt].slice(-ATTEMPTS_KEPT),
      };
    }
    case 'WebhookDeliveryAbandoned': {
      const { data } = event;
      // Abandoned because the customer's data was erased: the history forgets what that data was (issue #10, item 6).
      if (data.reason === 'data_erased') return null;
      const doc = current ?? created(data.delivery_id, data.notification, data.abandoned_at);
      return { ...doc, status: 'abandoned', updated_at: data.abandoned_at, next_attempt_at: null, abandoned_reason: data.reason };
    }
    case 'WebhookRetryRequested':
      // A request can only follow a recorded event; without one there is nothing to show.
      return current ? { ...current, status: 'attempted', updated_at: event.data.requested_at, next_attempt_at: event.data.requested_at, abandoned_reason: null } : null;
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

/**
 * Whether a delivery names a customer an erasure (this marker) took away: any
 * type, since every body names the customer (issue 47, docs/adr/0055; erasures
 * recorded before listed only the types the source's data made).
 */
function erasedBy(marker: WebhookDeliveriesDoc | undefined, notification: StoredNotification): boolean {
  if (!marker || marker.account_id !== null) return false;
  return notification.occurred_at <= marker.erasure.erased_at;
}

async function applyDelivery(event: RecordedEvent, collection: ReadCollection<WebhookDeliveriesDoc>): Promise<void> {
  const domainEvent = { type: event.type, data: event.data } as DeliveryEvent;
  const id = domainEvent.data.delivery_id;
  if (domainEvent.type !== 'WebhookRetryRequested') {
    const { notification } = domainEvent.data;
    // An attempt recorded after its customer's erasure (it was under way when the data went) does not bring the delivery back.
    if (isSealed(notification) && erasedBy(await collection.get(erasureMarkerId(notification.account_id, notification.customer_hash)), notification)) {
      await collection.apply(id, event.position, () => null);
      return;
    }
  }
  await collection.apply(id, event.position, (current) => evolveDeliveryDoc(current as DeliveryDoc | undefined, domainEvent));
}

/** Drops the customer's deliveries of every type (up to the erasure), and remembers the erasure for attempts recorded after it. */
async function applyErasure(event: RecordedEvent, collection: ReadCollection<WebhookDeliveriesDoc>): Promise<void> {
  const { account_id, customer_hash, event_types, erased_at, legacy_delivery_ids } = event.data as WebhookDeliveriesErased['data'];
  const ids = [...legacy_delivery_ids];
  let cursor: string | undefined;
  do {
    // The index's prefix (account, customer hash): every type, whatever the erasure listed.
    const page = await collection.find({ index: DELIVERIES_BY_CUSTOMER, equals: [account_id, customer_hash], limit: 1000, cursor });
    for (const doc of page.items as DeliveryDoc[]) if (doc.event_timestamp <= erased_at) ids.push(doc.id);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  // Deleting through `apply` leaves the erasure's position behind, so a replayed delivery event cannot resurrect one.
  for (const id of ids) await collection.apply(id, event.position, () => null);
  await collection.apply(erasureMarkerId(account_id, customer_hash), event.position, (current): ErasureMarkerDoc => {
    const previous = current && current.account_id === null ? current.erasure : undefined;
    return {
      id: erasureMarkerId(account_id, customer_hash),
      account_id: null,
      customer_hash: null,
      legacy_customer_id: null,
      event_type: null,
      created_at: null,
      erasure: {
        account_id,
        customer_hash,
        event_types: [...new Set([...(previous?.event_types ?? []), ...event_types])],
        erased_at: previous && previous.erased_at > erased_at ? previous.erased_at : erased_at,
      },
    };
  });
}

/**
 * GET /v2/webhooks/deliveries: one document per delivery with its attempts,
 * by account and creation time; a customer's erasure removes every delivery
 * naming them (by the keyed customer hash the deliveries carry).
 */
export const webhookDeliveriesProjection: Projection<WebhookDeliveriesDoc> = {
  ...DELIVERIES_READ_MODEL,
  streamPrefixes: ['webhook_delivery-', 'webhook_erasure-'],
  handles: [...DELIVERY_EVENT_TYPES, ...DELIVERY_ERASURE_EVENT_TYPES],
  indexes: DELIVERIES_INDEXES,
  async apply(event, collection) {
    if (event.type === 'WebhookDeliveriesErased') await applyErasure(event, collection);
    else await applyDelivery(event, collection);
  },
};
