import { accountsCli } from './cli.js';
import type { ContextDefinition } from '../../platform/src/index.js';
import { accountsManifest } from './manifest.js';
import { AccountsModule } from './accounts.module.js';

/** Accounts, API keys, users and their sign-in (interface.md, "Authentication"). What the accounts context brings to the apps (apps/shared/contexts.ts). */
export const accountsContext: ContextDefinition = {
  manifest: accountsManifest,
  http: AccountsModule,
  cli: accountsCli,
};
