import type { ContextManifest } from '../../platform/src/index.js';
import { accountsEventTypes } from './event-types.js';

/** What the accounts context brings to a process (checked at start-up). */
export const accountsManifest: ContextManifest = {
  name: 'accounts',
  events: accountsEventTypes,
  commands: [],
  readModels: { views: ['key_directory', 'sign_in_directory'] },
};
