import type { EventTypeDefinition } from '../../platform/src/index.js';

/** Schema versions (and, later, upcasters) of the webhooks context's stored events. */
export const webhooksEventTypes: EventTypeDefinition[] = [
  { type: 'WebhookConfigured', version: 1 },
  { type: 'WebhookRemoved', version: 1 },
  { type: 'WebhookDeliveryAttempted', version: 1 },
  { type: 'WebhookDeliveryAbandoned', version: 1 },
  { type: 'WebhookRetryRequested', version: 1 },
];
