export * from './domain/errors.js';
export * from './domain/api-key.js';
export * from './users/domain/user.js';
export * from './authentication/api-key.guard.js';
export * from './authentication/constant-time.js';
export * from './authentication/key-directory.js';
export * from './event-types.js';
export * from './quota.js';
export * from './accounts.module.js';
export * from './accounts.js';
export * from './api-keys.js';
export * from './domain/account.js';
export { IpAllowlist } from './domain/ip-allowlist.js';
export { keyRecordView } from './key-record.view.js';
export { accountView } from './commands/operate-account/operate-account.controller.js';
export { ipThrottle, LANDMARK_REPORTS_PER_MINUTE, ROUTE_STATIC_PER_MINUTE } from './throttling/ip-throttle.js';
/** How a key is looked up in the KeyDirectory (a public endpoint that takes an optional key: landmark reports). */
export { hashKey } from './credentials/index.js';
export * from './manifest.js';
