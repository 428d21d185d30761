import type { ContextManifest } from '../../platform/src/index.js';
import { placesEventTypes } from './event-types.js';

/** What the places context brings to a process (checked at start-up). */
export const placesManifest: ContextManifest = {
  name: 'places',
  events: placesEventTypes,
  commands: [],
  readModels: { projections: ['landmark_reports'], views: ['narration_feed'] },
};
