import type { INestApplicationContext, Provider } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandBus, CqrsModule } from '@nestjs/cqrs';
import type { Clock } from '../clock.js';
import type { EventRegistry } from '../events/event-registry.js';
import type { EventStore } from '../event-store/event-store.port.js';
import { CommandPipeline } from './command-pipeline.js';
import { ReadModels } from './read-models.js';

export interface OperatorBusOptions {
  events: EventStore;
  registry: EventRegistry;
  clock: Clock;
  /** The read models the commands await, as this process follows them (none: nothing is awaited). */
  readModels?: ReadModels;
  waitMs?: number;
  /** The handlers the operator command dispatches to, and what they and the declarations inject. */
  providers: Provider[];
}

/** The root of an operator command's application context. */
class OperatorBusModule {}

/**
 * The operator CLI's buses (docs/adr/0015): `npm run ops` commands that change
 * state dispatch on `@nestjs/cqrs`'s CommandBus, as the service does, to the
 * same handlers, which run their declarations on a pipeline over the log. The
 * application context holds only the handlers one operator command needs (no
 * HTTP, no followers, no background work), and is closed when it is done.
 */
export async function withOperatorBus<T>(options: OperatorBusOptions, run: (commands: CommandBus) => Promise<T>): Promise<T> {
  let app: INestApplicationContext | undefined;
  const pipeline = new CommandPipeline(options.events, options.registry, options.readModels ?? new ReadModels(), options.clock, {
    waitMs: options.waitMs ?? 10_000,
    resolve: (token) => {
      if (!app) throw new Error('the operator bus resolved a dependency before it started');
      return app.get(token as string, { strict: false });
    },
  });
  app = await NestFactory.createApplicationContext(
    { module: OperatorBusModule, imports: [CqrsModule.forRoot()], providers: [{ provide: CommandPipeline, useValue: pipeline }, ...options.providers] },
    { logger: false, abortOnError: false },
  );
  try {
    return await run(app.get(CommandBus));
  } finally {
    await app.close();
  }
}
