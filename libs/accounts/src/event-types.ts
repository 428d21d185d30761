import type { EventTypeDefinition } from '../../platform/src/index.js';

/** Schema versions and upcasters of the accounts context's stored events. */
export const accountsEventTypes: EventTypeDefinition[] = [
  { type: 'ApiKeyIssued', version: 1 },
  { type: 'ApiKeyRevoked', version: 1 },
  { type: 'AccountOpened', version: 1 },
  { type: 'AccountTierChanged', version: 1 },
  { type: 'BankingAccessChanged', version: 1 },
  { type: 'IpAllowlistReplaced', version: 1 },
  { type: 'RateOverridesReplaced', version: 1 },
  // Users (domain/user.ts): passwords, reset tokens, Google links.
  { type: 'UserRegistered', version: 1 },
  { type: 'UserPasswordAttached', version: 1 },
  { type: 'UserPasswordChanged', version: 1 },
  { type: 'UserPasswordRehashed', version: 1 },
  { type: 'UserPasswordResetRequested', version: 1 },
  { type: 'UserPasswordReset', version: 1 },
  { type: 'UserGoogleIdentityLinked', version: 1 },
];
