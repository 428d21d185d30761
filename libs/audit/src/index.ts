export * from './domain/access-events.js';
export * from './event-types.js';
export * from './recording/access-recorder.js';
export * from './recording/access-listener.js';
export * from './audit.module.js';
export * from './manifest.js';
export * from './read-models/access-log.read-model.js';
