// The accounts context's public API: what the apps, the other contexts and the operator CLI use.
export * from './domain/errors.js';
export * from './domain/api-key.js';
export * from './domain/account.js';
export * from './domain/user.js';
export type { IpAllowlist } from './domain/ip-allowlist.js';
export * from './public/api-key.guard.js';
export * from './public/key-directory.js';
export { ACCOUNT_DIRECTORY, type AccountDirectory } from './account-directory.port.js';
export * from './event-types.js';
export * from './accounts.module.js';
export * from './manifest.js';
export { BackgroundTasks } from './public/background-tasks.js';
// The operator's commands, for `npm run ops` (decisions.md, "Operator interface").
// HTTP hooks the api process registers around Nest (apps/api/src/serve.ts).
export { InFlight } from './public/in-flight.js';
export { ipThrottle, rateLimitHeadersOnEveryResponse, LANDMARK_REPORTS_PER_MINUTE, PUBLIC_PER_IP_PER_MINUTE, ROUTE_STATIC_PER_MINUTE, rateTable, RATE_GROUPS, TIER_RATE_FACTORS, type RateGroup } from './public/ip-throttle.js';
// What this context brings to the apps (apps/shared/contexts.ts).
export { accountsContext } from './context.js';
