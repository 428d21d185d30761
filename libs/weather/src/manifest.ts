import type { ContextManifest } from '../../platform/src/index.js';

/**
 * Weather (issue #16, docs/adr/0026): no events in the event store. CAP
 * messages go to the weather alert log (alerts/alert-log.ts), forecasts are
 * read through from the provider.
 */
export const weatherManifest: ContextManifest = {
  name: 'weather',
  events: [],
};
