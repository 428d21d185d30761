import type { EventTypeDefinition } from '../../platform/src/index.js';

/**
 * The transit context stores no events: feeds are reference data, versioned
 * files switched atomically (docs/adr/0011, 0019), and queries change nothing.
 */
export const transitEventTypes: EventTypeDefinition[] = [];
