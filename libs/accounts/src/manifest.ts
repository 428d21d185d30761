import type { ContextManifest } from '../../platform/src/index.js';
import { accountsAsOf } from './as-of.js';
import { KeyDirectory } from './public/key-directory.js';
import { changeTier } from './commands/change-tier/change-tier.handler.js';
import { issueKey } from './commands/issue-key/issue-key.handler.js';
import { rehashPassword } from './commands/log-in/log-in.handler.js';
import { replaceIpAllowlist } from './commands/replace-ip-allowlist/replace-ip-allowlist.handler.js';
import { replaceRateOverrides } from './commands/replace-rate-overrides/replace-rate-overrides.handler.js';
import { requestPasswordReset } from './commands/request-password-reset/request-password-reset.handler.js';
import { resetPassword } from './commands/reset-password/reset-password.handler.js';
import { revokeKey } from './commands/revoke-key/revoke-key.handler.js';
import { setBankingAccess } from './commands/set-banking-access/set-banking-access.handler.js';
import { setPassword } from './commands/set-password/set-password.handler.js';
import { linkGoogleIdentity } from './commands/sign-in-with-google/sign-in-with-google.handler.js';
import { openAccount } from './commands/sign-up/sign-up.handler.js';
import { accountsEventTypes } from './event-types.js';
import { GetMeQuery } from './queries/get-me/get-me.handler.js';
import { GetUsageQuery } from './usage.query.js';
import { SignInDirectory } from './users/sign-in-directory.js';

/**
 * What the accounts context brings to a process (checked at start-up). The
 * process handlers (signup, rotation, legacy keys, sign-in, sign-out on a
 * password change) run these commands; they append nothing of their own.
 */
export const accountsManifest: ContextManifest = {
  name: 'accounts',
  events: accountsEventTypes,
  commands: [
    openAccount,
    issueKey,
    revokeKey,
    changeTier,
    setBankingAccess,
    replaceIpAllowlist,
    replaceRateOverrides,
    setPassword,
    rehashPassword,
    linkGoogleIdentity,
    requestPasswordReset,
    resetPassword,
  ],
  queries: [GetMeQuery, GetUsageQuery],
  readModels: { views: [KeyDirectory.readModel, SignInDirectory.readModel] },
  asOf: accountsAsOf,
};
