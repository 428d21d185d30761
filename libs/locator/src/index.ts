// The locator context's public API: what the apps, the projections and the tests use.
export * from './domain/share.js';
export * from './domain/position.js';
export * from './domain/errors.js';
export { normaliseShareCode, formatShareCode, CROCKFORD_ALPHABET, SHARE_CODE_BITS } from './domain/share-code.js';
export * from './event-types.js';
export * from './public/shares.read-model.js';
export { PositionSealing, type SealedCheckIn } from './public/position-sealing.js';
export * from './locator.module.js';
export * from './manifest.js';
// What this context brings to the apps (apps/shared/contexts.ts).
export { locatorContext } from './context.js';
