export * from './domain/errors.js';
export * from './authentication/api-key.guard.js';
export * from './authentication/constant-time.js';
