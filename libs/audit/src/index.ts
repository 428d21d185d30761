export * from './domain/access-events.js';
export * from './event-types.js';
export * from './public/access-recorder.js';
export * from './public/journaled-access-recorder.js';
export * from './public/access-listener.js';
export * from './audit.module.js';
export * from './manifest.js';
export * from './public/access-log.read-model.js';
// What this context brings to the apps (apps/shared/contexts.ts).
export { auditContext } from './context.js';
