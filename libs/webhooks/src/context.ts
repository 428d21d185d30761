import type { ContextDefinition } from '../../platform/src/index.js';
import { webhooksManifest } from './manifest.js';
import { WebhooksWorkerModule } from './webhooks-worker.module.js';
import { WebhooksModule } from './webhooks.module.js';

/** Webhook configuration over HTTP; the fan-out and the delivery queue's processor in the worker. */
export const webhooksContext: ContextDefinition = {
  manifest: webhooksManifest,
  http: WebhooksModule,
  worker: WebhooksWorkerModule,
};
