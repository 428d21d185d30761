import type { EventTypeDefinition } from '../../platform/src/index.js';

/**
 * Schema versions and upcasters of the webhooks context's stored events.
 * Delivery events at version 2 hold the notification sealed (customer as a
 * keyed hash); version 1 held it in the clear. A clear notification is still
 * a valid `StoredNotification`, so version 1 reads as it is (no upcaster):
 * the log cannot be rewritten under a key, and every reader opens both shapes.
 */
export const webhooksEventTypes: EventTypeDefinition[] = [
  { type: 'WebhookConfigured', version: 1 },
  { type: 'WebhookRemoved', version: 1 },
  { type: 'WebhookDeliveryAttempted', version: 2 },
  { type: 'WebhookDeliveryAbandoned', version: 2 },
  { type: 'WebhookRetryRequested', version: 1 },
  { type: 'WebhookDeliveriesErased', version: 1 },
];
