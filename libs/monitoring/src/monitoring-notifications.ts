import { StreamNotFoundError, type EventRegistry, type EventStore, type RecordedEvent } from '../../platform/src/index.js';
import type { ConsentRevoked } from './domain/consent.js';
import type { Notification, NotificationSource } from './notifications.js';

/**
 * The monitoring context's webhook notifications: consent_revoked from the
 * consent streams (drift and geofence_breach join with the location streams).
 */
export class MonitoringNotifications implements NotificationSource {
  readonly streamPrefixes = ['consent-'] as const;

  constructor(
    private readonly events: EventStore,
    private readonly registry: EventRegistry,
  ) {}

  notificationOf(event: RecordedEvent): Notification | undefined {
    if (event.type !== 'ConsentRevoked') return undefined;
    const { account_id, customer_id, revoked_at } = (event as unknown as ConsentRevoked & RecordedEvent).data;
    return {
      account_id,
      customer_id,
      event_type: 'consent_revoked',
      occurred_at: revoked_at,
      stream: event.streamName,
      revision: event.revision.toString(),
      event_id: event.id,
    };
  }

  async payloadOf(notification: Notification): Promise<Record<string, unknown> | undefined> {
    const event = await this.read(notification);
    if (!event) return undefined;
    switch (notification.event_type) {
      case 'consent_revoked':
        return { event: 'consent_revoked', customer_id: notification.customer_id, timestamp: notification.occurred_at };
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
