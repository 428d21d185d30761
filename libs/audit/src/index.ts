export * from './domain/access-events.js';
export * from './event-types.js';
export * from './recording/access-recorder.js';
export * from './recording/journaled-access-recorder.js';
export * from './recording/access-journal.js';
export * from './recording/access-listener.js';
export * from './audit.module.js';
export * from './manifest.js';
export * from './read-models/access-log.read-model.js';
// What this context brings to the apps (apps/shared/contexts.ts).
export { auditContext } from './context.js';
