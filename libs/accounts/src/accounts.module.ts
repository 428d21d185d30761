import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { CLOCK, CONFIG, EVENT_STORE, EventRegistry, Followers, JsonLogger, ReadModels, registerView, type Clock, type Config, type EventStore } from '../../platform/src/index.js';
import { Accounts } from './accounts.js';
import { ApiKeys } from './api-keys.js';
import { KeyDirectory } from './authentication/key-directory.js';
import { IssueLegacyKeyController } from './commands/issue-legacy-key/issue-legacy-key.controller.js';
import { OperateAccountController } from './commands/operate-account/operate-account.controller.js';
import { RevokeKeyController } from './commands/revoke-key/revoke-key.controller.js';
import { RotateKeyController } from './commands/rotate-key/rotate-key.controller.js';
import { SignUpController } from './commands/sign-up/sign-up.controller.js';
import { SignUpHandler } from './commands/sign-up/sign-up.handler.js';
import { GetMeController } from './queries/get-me/get-me.controller.js';
import { LogInController } from './commands/log-in/log-in.controller.js';
import { LogInHandler } from './commands/log-in/log-in.handler.js';
import { RequestPasswordResetController } from './commands/request-password-reset/request-password-reset.controller.js';
import { RequestPasswordResetHandler } from './commands/request-password-reset/request-password-reset.handler.js';
import { ResetPasswordController } from './commands/reset-password/reset-password.controller.js';
import { ResetPasswordHandler } from './commands/reset-password/reset-password.handler.js';
import { SetPasswordController } from './commands/set-password/set-password.controller.js';
import { SetPasswordHandler } from './commands/set-password/set-password.handler.js';
import { SignInWithGoogleController } from './commands/sign-in-with-google/sign-in-with-google.controller.js';
import { SignInWithGoogleHandler } from './commands/sign-in-with-google/sign-in-with-google.handler.js';
import { userProviders } from './users/users.providers.js';

/** Keys and accounts (interface.md, "Keys and accounts"); its guard authenticates every request. */
@Module({
  imports: [CqrsModule],
  controllers: [
    SignUpController,
    RotateKeyController,
    RevokeKeyController,
    GetMeController,
    OperateAccountController,
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
    {
      provide: ApiKeys,
      inject: [EVENT_STORE, EventRegistry, KeyDirectory, CLOCK, CONFIG],
      useFactory: (events: EventStore, registry: EventRegistry, directory: KeyDirectory, clock: Clock, config: Config) =>
        new ApiKeys(events, registry, directory, clock, config.projectionWaitMs),
    },
    {
      provide: Accounts,
      inject: [EVENT_STORE, EventRegistry, KeyDirectory, CLOCK, CONFIG],
      useFactory: (events: EventStore, registry: EventRegistry, directory: KeyDirectory, clock: Clock, config: Config) =>
        new Accounts(events, registry, directory, clock, config.projectionWaitMs),
    },
    SignUpHandler,
    ...userProviders,
    SetPasswordHandler,
    LogInHandler,
    SignInWithGoogleHandler,
    RequestPasswordResetHandler,
    ResetPasswordHandler,
  ],
  exports: [KeyDirectory, ApiKeys, Accounts],
})
export class AccountsModule {}
