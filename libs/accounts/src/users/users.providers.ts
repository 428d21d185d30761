import type { Provider } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CLOCK, CONFIG, EVENT_STORE, EventRegistry, Followers, JsonLogger, ReadModels, registerView, type Clock, type Config, type EventStore } from '../../../platform/src/index.js';
import { KeyDirectory } from '../public/key-directory.js';
import { GoogleIdTokenVerifier, PasswordHasher } from '../credentials/index.js';
import { BackgroundTasks } from '../public/background-tasks.js';
import { PersonalTokens } from './personal-tokens.js';
import { SignInDirectory } from './sign-in-directory.js';

/** Nest token of the GoogleIdTokenVerifier, or null when GOOGLE_CLIENT_IDS is unset. */
export const GOOGLE_ID_TOKEN_VERIFIER = Symbol('GoogleIdTokenVerifier');

/** What the user slices (passwords, sign-in, reset) share. */
export const userProviders: Provider[] = [
  {
    provide: SignInDirectory,
    inject: [EVENT_STORE, EventRegistry, ReadModels, Followers, JsonLogger],
    useFactory: (events: EventStore, registry: EventRegistry, readModels: ReadModels, followers: Followers, logger: JsonLogger) =>
      registerView(new SignInDirectory(events, registry, logger), SignInDirectory.readModel, readModels, followers),
  },
  { provide: PasswordHasher, inject: [CONFIG], useFactory: (config: Config) => new PasswordHasher({ cost: config.bcryptCost }) },
  {
    provide: GOOGLE_ID_TOKEN_VERIFIER,
    inject: [CONFIG, CLOCK],
    useFactory: (config: Config, clock: Clock) =>
      config.googleClientIds.length === 0 ? null : new GoogleIdTokenVerifier({ audiences: config.googleClientIds, jwksUrl: config.googleJwksUrl, clock }),
  },
  {
    provide: PersonalTokens,
    inject: [CommandBus, KeyDirectory, SignInDirectory, CLOCK, CONFIG],
    useFactory: (commands: CommandBus, keyDirectory: KeyDirectory, directory: SignInDirectory, clock: Clock, config: Config) =>
      new PersonalTokens(commands, keyDirectory, directory, clock, { ttlDays: config.personalTokenTtlDays, waitMs: config.projectionWaitMs }),
  },
  BackgroundTasks,
];
