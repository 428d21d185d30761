// The accounts context's public API: what the apps, the other contexts and the operator CLI use.
export * from './domain/errors.js';
export * from './domain/api-key.js';
export * from './domain/account.js';
export * from './domain/user.js';
export { IpAllowlist } from './domain/ip-allowlist.js';
export * from './authentication/api-key.guard.js';
export * from './authentication/key-directory.js';
export * from './event-types.js';
export * from './quota.js';
export * from './accounts.module.js';
export * from './manifest.js';
export { BackgroundTasks } from './users/background-tasks.js';
export { keyRecordView } from './key-record.view.js';
export { accountView } from './account.view.js';
// The operator's commands, for `npm run ops` (decisions.md, "Operator interface").
export { changeTier } from './commands/change-tier/change-tier.handler.js';
export { setBankingAccess } from './commands/set-banking-access/set-banking-access.handler.js';
export { replaceIpAllowlist } from './commands/replace-ip-allowlist/replace-ip-allowlist.handler.js';
export { issueLegacyKey } from './commands/issue-legacy-key/issue-legacy-key.handler.js';
// HTTP hooks the api process registers around Nest (apps/api/src/serve.ts).
export { ipThrottle, rateLimitHeadersOnEveryResponse, LANDMARK_REPORTS_PER_MINUTE, PUBLIC_PER_IP_PER_MINUTE, ROUTE_STATIC_PER_MINUTE } from './throttling/ip-throttle.js';
// What this context brings to the apps (apps/shared/contexts.ts).
export { accountsContext } from './context.js';
