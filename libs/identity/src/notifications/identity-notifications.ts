import { storedEventAt, type DataKeyVault, type EventRegistry, type EventStore, type RecordedEvent } from '../../../platform/src/index.js';
import type { Notification, NotificationSource } from '../../../webhooks/src/index.js';
import type { DeliveryConfirmed } from '../domain/delivery.js';
import { IdentityFieldOpener } from '../sealing/identity-sealing.js';

/**
 * The identity context's webhook notifications: `delivery.confirmed` from
 * the proof-of-delivery streams (interface.md, "Events"). The notification
 * carries no position; the payload is read from the stored event when a
 * delivery is attempted:
 *
 * `{event: "delivery.confirmed", delivery_id, customer_id (null when none was
 * given), receipt_id, receipt (the signed JWS, verifiable with the JWKS),
 * kid, location_code, address_code, distance_m, decision, recipient_name,
 * photo_sha256, timestamp (the confirmation time)}`.
 *
 * A confirmation naming a customer is stored sealed under the customer's data
 * key (ADR 0054): once an erasure destroyed it there is no payload, and an
 * attempt after it sends nothing.
 */
export class IdentityNotifications implements NotificationSource {
  readonly streamPrefixes = ['pod_delivery-'] as const;
  private readonly opener: IdentityFieldOpener;

  constructor(
    private readonly events: EventStore,
    private readonly registry: EventRegistry,
    vault: DataKeyVault,
  ) {
    this.opener = new IdentityFieldOpener(vault);
  }

  notificationOf(event: RecordedEvent): Notification | undefined {
    if (event.type !== 'DeliveryConfirmed') return undefined;
    const data = event.data as DeliveryConfirmed['data'];
    return {
      account_id: data.account_id,
      // The notification contract names a customer; a delivery confirmed without one is filed under none.
      customer_id: data.customer_id ?? '',
      event_type: 'delivery.confirmed',
      occurred_at: data.confirmed_at,
      stream: event.streamName,
      revision: event.revision.toString(),
      event_id: event.id,
    };
  }

  async payloadOf(notification: Notification): Promise<Record<string, unknown> | undefined> {
    const stored = await this.read(notification);
    if (stored?.type !== 'DeliveryConfirmed') return undefined;
    const data = stored.data as DeliveryConfirmed['data'];
    return data.location_erased ? undefined : deliveryConfirmedPayload(data);
  }

  private async read(notification: Notification): Promise<RecordedEvent | undefined> {
    const event = await storedEventAt(this.events, notification);
    return event && this.registry.upcast({ ...event, data: await this.opener.open(event) });
  }
}

/** The documented `delivery.confirmed` payload. */
export function deliveryConfirmedPayload(data: DeliveryConfirmed['data']): Record<string, unknown> {
  return {
    event: 'delivery.confirmed',
    delivery_id: data.delivery_id,
    customer_id: data.customer_id,
    receipt_id: data.receipt_id,
    receipt: data.receipt,
    kid: data.kid,
    location_code: data.location_code,
    address_code: data.address?.code ?? null,
    distance_m: data.address?.distance_m ?? null,
    decision: data.address?.decision ?? null,
    recipient_name: data.recipient_name,
    photo_sha256: data.photo_sha256,
    timestamp: data.confirmed_at,
  };
}
