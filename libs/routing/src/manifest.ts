import type { ContextManifest } from '../../platform/src/index.js';

/**
 * Routing (issue #15): reference data and queries only, so far no stored
 * events; hazard reports and arrival telemetry (issue #16) add theirs here.
 */
export const routingManifest: ContextManifest = {
  name: 'routing',
  events: [],
};
