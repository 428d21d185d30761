import type { DynamicModule, Type } from '@nestjs/common';
import type { Config } from '../config/config.js';
import type { EventStore } from '../event-store/event-store.port.js';
import type { EventRegistry } from '../events/event-registry.js';
import type { ReadStore } from '../read-store/read-store.port.js';
import type { ContextManifest } from './context-manifest.js';

/**
 * What a process is for. `api` serves HTTP and runs no background work;
 * `worker` runs the projections, the queue processors, the relay and the
 * webhook fan-out; `all-in-one` is both (what `npm start` runs); `ops` is the
 * operator's command line. Injected as PROCESS_ROLE.
 */
export type ProcessRole = 'api' | 'worker' | 'all-in-one' | 'ops';

/** Nest token of the process's role. */
export const PROCESS_ROLE = Symbol('ProcessRole');

/** The role serves the contexts' HTTP modules. */
export function servesHttp(role: ProcessRole): boolean {
  return role === 'api' || role === 'all-in-one';
}

/** The role runs the background work: projections, queue processors, the relay, the webhook fan-out. */
export function runsBackgroundWork(role: ProcessRole): boolean {
  return role === 'worker' || role === 'all-in-one';
}

/** A Nest module as `imports` takes it. */
export type ModuleImport = Type<unknown> | DynamicModule;

/** Bad arguments to an operator command: exit code 64 with the command's usage. */
export class UsageError extends Error {}

/**
 * What operator commands work on: the log and the read models only. The job
 * queue and the Kafka relay belong to the running service (the embedded queue
 * admits one process), so the CLI can run beside it.
 */
export interface OperatorRuntime {
  backends: { events: EventStore; readStore: ReadStore };
  registry: EventRegistry;
  /** Every context's manifest (what as-of replay iterates, for one). */
  manifests: readonly ContextManifest[];
  config: Config;
}

/** One `npm run ops -- <name> …` command: exit 0 done, 1 the check failed, 64 bad usage (throw UsageError). */
export interface OperatorCommand {
  usage: string;
  run(runtime: OperatorRuntime, args: string[]): Promise<number>;
}

/**
 * Everything one bounded context brings to the service, in one object: the
 * apps compose the api, worker, all-in-one and ops processes from the list of
 * definitions (`apps/shared/contexts.ts`), and nothing central names a
 * context's internals. Its projections are claimed by name in the manifest
 * (`readModels.projections`; the objects live in `projections/`), its views
 * and queues too. After Nest starts, the wiring check (`checkWiring`)
 * compares the manifest with what the modules registered.
 */
export interface ContextDefinition {
  manifest: ContextManifest;
  /** The api role's module: controllers, command and query handlers, the views queries read. */
  http?: ModuleImport;
  /** The worker role's module: queue processors and notification sources (background work runs there only). */
  worker?: ModuleImport;
  /** Operator commands, by name (`npm run ops -- <name>`). */
  cli?: Readonly<Record<string, OperatorCommand>>;
}

/** Nest token of the process's context definitions (the wiring check reads them). */
export const CONTEXT_DEFINITIONS = Symbol('ContextDefinitions');
