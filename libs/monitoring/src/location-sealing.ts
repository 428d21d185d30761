// Transitional: `monitoring-notifications.ts` (being rewritten with the notification contract's move
// to webhooks) still imports LocationSealing from here. It lives in `location-stream/`; drop this file
// once that import points there.
export { LocationSealing, type SealedLocationData } from './location-stream/location-sealing.js';
