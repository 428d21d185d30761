import { hexCodeForPoint, hexCodeFromCell } from '../../addressing/src/index.js';
import { InvalidParamError, storedEventAt, StreamNotFoundError, type EventRegistry, type EventStore, type RecordedEvent } from '../../platform/src/index.js';
import type { CustomerErasure, Notification, NotificationSource, WebhookEventType } from '../../webhooks/src/index.js';
import { consentStream, type ConsentRevoked, type CustomerDataErased } from './domain/consent.js';
import type { DriftStarted, GeofenceEntered } from './domain/location.js';
// The location opener (exported by monitoring's index as well); used by the one call in `open` below.
import type { LocationSealing } from './location-stream/location-sealing.js';

/** Stored event type → webhook event type, and the clear field holding the event's own time. */
const NOTIFYING: Record<string, { event_type: WebhookEventType; time: string }> = {
  ConsentRevoked: { event_type: 'consent_revoked', time: 'revoked_at' },
  DriftStarted: { event_type: 'drift', time: 'occurred_at' },
  GeofenceEntered: { event_type: 'geofence_breach', time: 'occurred_at' },
};
/** What POST /v2/consent/delete-data erases (ADR 12): the location streams, so every notification built from them. */
const ERASED_BY_DELETE_DATA: readonly WebhookEventType[] = ['drift', 'geofence_breach'];

/**
 * The monitoring context's webhook notifications: consent_revoked from the
 * consent streams, drift and geofence_breach from the location streams; a
 * `CustomerDataErased` takes the drift and geofence_breach notifications of
 * that customer with it (consent_revoked stays: the consent history is kept).
 * The notification itself carries no location; the payload is opened with the
 * customer's key at attempt time, so after an erasure there is none to send.
 * Declared in `manifest.ts` (`notifications`).
 */
export class MonitoringNotifications implements NotificationSource {
  readonly streamPrefixes = ['consent-', 'location-'] as const;
  static readonly notifies: readonly WebhookEventType[] = ['consent_revoked', 'drift', 'geofence_breach'];
  static readonly from: readonly string[] = ['ConsentRevoked', 'DriftStarted', 'GeofenceEntered', 'CustomerDataErased'];

  constructor(
    private readonly events: EventStore,
    private readonly registry: EventRegistry,
    private readonly sealing: LocationSealing,
  ) {}

  notificationOf(event: RecordedEvent): Notification | undefined {
    const notifying = NOTIFYING[event.type];
    if (!notifying) return undefined;
    const data = event.data as Record<string, unknown>;
    return {
      account_id: String(data.account_id),
      customer_id: String(data.customer_id),
      event_type: notifying.event_type,
      occurred_at: String(data[notifying.time]),
      stream: event.streamName,
      revision: event.revision.toString(),
      event_id: event.id,
    };
  }

  erasureOf(event: RecordedEvent): CustomerErasure | undefined {
    if (event.type !== 'CustomerDataErased') return undefined;
    const { account_id, customer_id, erased_at } = event.data as CustomerDataErased['data'];
    return { account_id, customer_id, erased_at, event_types: ERASED_BY_DELETE_DATA };
  }

  /** When the customer's data was last erased (POST /v2/consent/delete-data): no delivery naming them goes out for an event before it (docs/adr/0055). */
  async erasedAt(accountId: string, customerId: string): Promise<string | null> {
    let stored: RecordedEvent[];
    try {
      stored = await this.events.readStream(consentStream(accountId, customerId));
    } catch (error) {
      // No consent stream, or an id no consent could be given under (a delivery confirmed without a customer).
      if (error instanceof StreamNotFoundError || error instanceof InvalidParamError) return null;
      throw error;
    }
    const erased = stored.findLast((event) => event.type === 'CustomerDataErased');
    return erased ? (erased.data as CustomerDataErased['data']).erased_at : null;
  }

  async payloadOf(notification: Notification): Promise<Record<string, unknown> | undefined> {
    const stored = await this.read(notification);
    if (!stored) return undefined;
    const timestamp = notification.occurred_at;
    const customer_id = notification.customer_id;
    switch (stored.type) {
      case 'ConsentRevoked': {
        const { revoked_at } = stored.data as ConsentRevoked['data'];
        return { event: 'consent_revoked', customer_id, timestamp: revoked_at };
      }
      case 'DriftStarted': {
        const { home_cell, current_cell, distance_hops } = stored.data as DriftStarted['data'];
        return { event: 'drift', customer_id, home_hex: hexCodeFromCell(home_cell), current_hex: hexCodeFromCell(current_cell), distance_hops, timestamp };
      }
      case 'GeofenceEntered': {
        const { fence_id, fence_type, loan_id, lat, lng } = stored.data as GeofenceEntered['data'];
        return { event: 'geofence_breach', customer_id, fence_id, fence_type, loan_id, current_hex: hexCodeForPoint(lat, lng), lat, lng, timestamp };
      }
      default:
        return undefined;
    }
  }

  /**
   * The notified event if it is still stored (erasure deletes location
   * streams) and can be opened (its key still exists): read, opened, then
   * upcast, so an upcaster sees the fields it was written for.
   */
  private async read(notification: Notification): Promise<RecordedEvent | undefined> {
    const raw = await storedEventAt(this.events, notification);
    if (!raw) return undefined;
    const opened = await this.open(raw);
    return opened && this.registry.upcast(opened);
  }

  /** Location events are sealed under the customer's key; undefined once it is destroyed. */
  private async open(raw: RecordedEvent): Promise<RecordedEvent | undefined> {
    if (!raw.streamName.startsWith('location-')) return raw;
    const opened = await this.sealing.open(raw);
    return opened && { ...raw, data: opened.data as Record<string, unknown> };
  }
}
