import { MAIL_QUEUE_NAME } from '../mail/mail-queue.js';
import type { ContextDefinition } from './context-definition.js';
import type { ContextManifest } from './context-manifest.js';

/** The platform's own share: the mail queue its sender processes. */
export const platformManifest: ContextManifest = {
  name: 'platform',
  events: [],
  jobs: [MAIL_QUEUE_NAME],
};

/** The platform in the list of contexts: its worker machinery (projections, relay, mail sender) is the apps' own (apps/worker). */
export const platformContext: ContextDefinition = { manifest: platformManifest };
