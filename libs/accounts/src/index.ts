export * from './domain/errors.js';
export * from './domain/api-key.js';
export * from './authentication/api-key.guard.js';
export * from './authentication/constant-time.js';
export * from './authentication/key-directory.js';
export * from './event-types.js';
export * from './quota.js';
export * from './accounts.module.js';
