export * from './domain/consent.js';
export * from './event-types.js';
export * from './consents.js';
export * from './monitoring.module.js';
export * from './notifications.js';
export * from './monitoring-notifications.js';
