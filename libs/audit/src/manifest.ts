import type { ContextManifest } from '../../platform/src/index.js';
import { auditEventTypes } from './event-types.js';

/** What the audit context brings to a process (checked at start-up). */
export const auditManifest: ContextManifest = {
  name: 'audit',
  events: auditEventTypes,
  readModels: { projections: ['access_log'] },
};
