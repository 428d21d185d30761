import type { ContextManifest } from '../../platform/src/index.js';
import { WEBHOOK_QUEUE } from './delivery/webhook-jobs.js';
import { webhooksEventTypes } from './event-types.js';

/** What the webhooks context brings to a process (checked at start-up). */
export const webhooksManifest: ContextManifest = {
  name: 'webhooks',
  events: webhooksEventTypes,
  commands: [],
  readModels: { projections: ['webhook_deliveries'] },
  jobs: [WEBHOOK_QUEUE],
};
