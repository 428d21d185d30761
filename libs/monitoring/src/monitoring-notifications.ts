import { hexCodeForPoint, hexCodeFromCell } from '../../addressing/src/index.js';
import { StreamNotFoundError, type EventRegistry, type EventStore, type RecordedEvent } from '../../platform/src/index.js';
import type { ConsentRevoked } from './domain/consent.js';
import type { DriftStarted, GeofenceEntered } from './domain/location.js';
import type { LocationSealing } from './location-sealing.js';
import type { Notification, NotificationSource, WebhookEventType } from './notifications.js';

/** Stored event type → webhook event type, and the clear field holding the event's own time. */
const NOTIFYING: Record<string, { event_type: WebhookEventType; time: string }> = {
  ConsentRevoked: { event_type: 'consent_revoked', time: 'revoked_at' },
  DriftStarted: { event_type: 'drift', time: 'occurred_at' },
  GeofenceEntered: { event_type: 'geofence_breach', time: 'occurred_at' },
};

/**
 * The monitoring context's webhook notifications: consent_revoked from the
 * consent streams, drift and geofence_breach from the location streams. The
 * notification itself carries no location; the payload is opened with the
 * customer's key at attempt time, so after an erasure there is none to send.
 */
export class MonitoringNotifications implements NotificationSource {
  readonly streamPrefixes = ['consent-', 'location-'] as const;

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

  async payloadOf(notification: Notification): Promise<Record<string, unknown> | undefined> {
    const stored = await this.read(notification);
    if (!stored) return undefined;
    const timestamp = notification.occurred_at;
    const customer_id = notification.customer_id;
    switch (stored.type) {
      case 'ConsentRevoked': {
        const { revoked_at } = (stored as unknown as ConsentRevoked).data;
        return { event: 'consent_revoked', customer_id, timestamp: revoked_at };
      }
      case 'DriftStarted': {
        const event = (await this.sealing.open(stored)) as DriftStarted | undefined;
        if (!event) return undefined;
        const { home_cell, current_cell, distance_hops } = event.data;
        return { event: 'drift', customer_id, home_hex: hexCodeFromCell(home_cell), current_hex: hexCodeFromCell(current_cell), distance_hops, timestamp };
      }
      case 'GeofenceEntered': {
        const event = (await this.sealing.open(stored)) as GeofenceEntered | undefined;
        if (!event) return undefined;
        const { fence_id, fence_type, loan_id, lat, lng } = event.data;
        return { event: 'geofence_breach', customer_id, fence_id, fence_type, loan_id, current_hex: hexCodeForPoint(lat, lng), lat, lng, timestamp };
      }
      default:
        return undefined;
    }
  }

  /** The notified event if it is still stored (erasure deletes location streams). */
  private async read(notification: Notification): Promise<RecordedEvent | undefined> {
    try {
      const [event] = await this.events.readStream(notification.stream, { fromRevision: BigInt(notification.revision), maxCount: 1 });
      if (!event || event.id !== notification.event_id) return undefined;
      return this.registry.upcast(event);
    } catch (error) {
      if (error instanceof StreamNotFoundError) return undefined;
      throw error;
    }
  }
}
