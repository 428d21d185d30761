import { Module } from '@nestjs/common';
import { EVENT_STORE, EventRegistry, Followers, JsonLogger, ReadModels, registerView, type EventStore } from '../../platform/src/index.js';
import { ACCOUNT_DIRECTORY } from './account-directory.port.js';
import { KeyDirectory } from './public/key-directory.js';
import { InFlight } from './public/in-flight.js';
import { ChangeTierController } from './commands/change-tier/change-tier.controller.js';
import { ChangeTierHandler } from './commands/change-tier/change-tier.handler.js';
import { IssueKeyHandler } from './commands/issue-key/issue-key.handler.js';
import { IssueLegacyKeyController } from './commands/issue-legacy-key/issue-legacy-key.controller.js';
import { IssueLegacyKeyHandler } from './commands/issue-legacy-key/issue-legacy-key.handler.js';
import { LogInController } from './commands/log-in/log-in.controller.js';
import { LogInHandler, RehashPasswordHandler } from './commands/log-in/log-in.handler.js';
import { ReplaceIpAllowlistController } from './commands/replace-ip-allowlist/replace-ip-allowlist.controller.js';
import { ReplaceIpAllowlistHandler } from './commands/replace-ip-allowlist/replace-ip-allowlist.handler.js';
import { ReplaceRateOverridesController } from './commands/replace-rate-overrides/replace-rate-overrides.controller.js';
import { ReplaceRateOverridesHandler } from './commands/replace-rate-overrides/replace-rate-overrides.handler.js';
import { RequestPasswordResetController } from './commands/request-password-reset/request-password-reset.controller.js';
import { RequestPasswordResetHandler, RequestPasswordResetStepHandler } from './commands/request-password-reset/request-password-reset.handler.js';
import { ResetPasswordController } from './commands/reset-password/reset-password.controller.js';
import { ResetPasswordHandler, ResetPasswordStepHandler } from './commands/reset-password/reset-password.handler.js';
import { RevokeKeyController } from './commands/revoke-key/revoke-key.controller.js';
import { RevokeKeyHandler } from './commands/revoke-key/revoke-key.handler.js';
import { RotateKeyController } from './commands/rotate-key/rotate-key.controller.js';
import { RotateKeyHandler } from './commands/rotate-key/rotate-key.handler.js';
import { SetBankingAccessController } from './commands/set-banking-access/set-banking-access.controller.js';
import { SetBankingAccessHandler } from './commands/set-banking-access/set-banking-access.handler.js';
import { SetPasswordController } from './commands/set-password/set-password.controller.js';
import { SetPasswordHandler, SetPasswordStepHandler } from './commands/set-password/set-password.handler.js';
import { SignInWithGoogleController } from './commands/sign-in-with-google/sign-in-with-google.controller.js';
import { LinkGoogleIdentityHandler, SignInWithGoogleHandler } from './commands/sign-in-with-google/sign-in-with-google.handler.js';
import { SignUpController } from './commands/sign-up/sign-up.controller.js';
import { OpenAccountHandler, SignUpHandler } from './commands/sign-up/sign-up.handler.js';
import { GetMeController } from './queries/get-me/get-me.controller.js';
import { GetMeHandler } from './queries/get-me/get-me.handler.js';
import { GetUsageController } from './queries/get-usage/get-usage.controller.js';
import { GetUsageHandler } from './queries/get-usage/get-usage.handler.js';
import { Attempts } from './throttling/attempts.js';
import { userProviders } from './users/users.providers.js';

/**
 * Keys, accounts and users (interface.md, "Keys and accounts"); its guard
 * authenticates every request. Controllers dispatch through CommandBus and
 * QueryBus; each command's @CommandHandler runs its declaration through the
 * platform's pipeline, and the process handlers here (signup, rotation,
 * sign-in, password changes) dispatch those commands through the bus.
 */
@Module({
  controllers: [
    SignUpController,
    RotateKeyController,
    RevokeKeyController,
    GetMeController,
    GetUsageController,
    ChangeTierController,
    SetBankingAccessController,
    ReplaceIpAllowlistController,
    ReplaceRateOverridesController,
    IssueLegacyKeyController,
    SetPasswordController,
    LogInController,
    SignInWithGoogleController,
    RequestPasswordResetController,
    ResetPasswordController,
  ],
  providers: [
    {
      provide: KeyDirectory,
      inject: [EVENT_STORE, EventRegistry, ReadModels, Followers, JsonLogger],
      useFactory: (events: EventStore, registry: EventRegistry, readModels: ReadModels, followers: Followers, logger: JsonLogger) =>
        registerView(new KeyDirectory(events, registry, logger), KeyDirectory.readModel, readModels, followers),
    },
    // The port other contexts read accounts through (account-directory.port.ts).
    { provide: ACCOUNT_DIRECTORY, useExisting: KeyDirectory },
    ...userProviders,
    Attempts,
    InFlight,
    // The commands (one @CommandHandler per declaration) ...
    OpenAccountHandler,
    IssueKeyHandler,
    RevokeKeyHandler,
    ChangeTierHandler,
    SetBankingAccessHandler,
    ReplaceIpAllowlistHandler,
    ReplaceRateOverridesHandler,
    SetPasswordStepHandler,
    RehashPasswordHandler,
    LinkGoogleIdentityHandler,
    RequestPasswordResetStepHandler,
    ResetPasswordStepHandler,
    // ... the process handlers that dispatch them ...
    SignUpHandler,
    RotateKeyHandler,
    IssueLegacyKeyHandler,
    SetPasswordHandler,
    LogInHandler,
    SignInWithGoogleHandler,
    RequestPasswordResetHandler,
    ResetPasswordHandler,
    // ... and the queries.
    GetUsageHandler,
    GetMeHandler,
  ],
  exports: [KeyDirectory, ACCOUNT_DIRECTORY, InFlight],
})
export class AccountsModule {}
