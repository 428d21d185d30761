import { MAIL_QUEUE_NAME } from '../mail/mail-queue.js';
import type { ContextManifest } from './context-manifest.js';

/** The platform's own share: the mail queue its sender processes. */
export const platformManifest: ContextManifest = {
  name: 'platform',
  events: [],
  jobs: [MAIL_QUEUE_NAME],
};
