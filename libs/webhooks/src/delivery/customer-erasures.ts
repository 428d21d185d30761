import type { CommandPipeline } from '../../../platform/src/index.js';
import { eraseDeliveries } from '../commands/erase-deliveries/erase-deliveries.handler.js';
import { deliveryErasureStream } from '../domain/delivery-erasure.js';
import { isSealed, type Notification, type StoredNotification } from '../domain/notification.js';
import type { NotificationCipher } from '../notifications/notification-cipher.js';
import type { NotificationSources } from '../notifications/notification-sources.js';

/**
 * Whether a delivery's customer was erased at or after its event (docs/adr/0055):
 * then nothing naming them may be sent, whatever the event type — a
 * `consent_revoked` or `delivery.confirmed` body names the customer as surely
 * as a `drift` body places them. Two records answer: the webhooks context's
 * own (`WebhookDeliveriesErased` on `webhook_erasure-<account>:<customer hash>`,
 * which the fan-out writes when it reads the source's erasure event), and,
 * for the moment before the fan-out got there, each source that says when it
 * erased the customer (`NotificationSource.erasedAt`; monitoring's reads the
 * consent stream). The second needs the customer id, opened from the
 * notification; the first needs only the keyed hash.
 */
export class CustomerErasures {
  constructor(
    private readonly streams: CommandPipeline,
    private readonly cipher: NotificationCipher,
    private readonly sources?: NotificationSources,
  ) {}

  /** The keyed hash erasure records name the customer by. */
  hashOf(stored: StoredNotification): string {
    return isSealed(stored) ? stored.customer_hash : this.cipher.customerHash(stored.account_id, stored.customer_id);
  }

  /** The latest erasure the webhooks context recorded for the delivery's customer; null before any. */
  async recorded(stored: StoredNotification): Promise<string | null> {
    const { state } = await this.streams.read(eraseDeliveries, deliveryErasureStream(stored.account_id, this.hashOf(stored)));
    return state.erased_at;
  }

  /** True when the customer was erased at or after the notified event (`notification`: opened, when it could be). */
  async erased(stored: StoredNotification, notification: Notification | undefined): Promise<boolean> {
    const recorded = await this.recorded(stored);
    if (recorded !== null && stored.occurred_at <= recorded) return true;
    if (!notification || !this.sources) return false;
    for (const { source } of this.sources.all) {
      const at = source.erasedAt ? await source.erasedAt(notification.account_id, notification.customer_id) : null;
      if (at !== null && stored.occurred_at <= at) return true;
    }
    return false;
  }
}
