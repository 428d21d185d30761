/**
 * Addressing's surface for worker threads of other contexts (docs/adr/0044):
 * pure functions over h3-js that load neither Nest nor a driver, so a thread
 * entry that needs a hex code does not pull this context's index (its
 * modules, the places index and every driver) into each thread. Anything
 * exported here must stay that light.
 */
export { hexCodeFromCell } from './domain/hexcode.js';
