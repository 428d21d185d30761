import type { INestApplicationContext } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import type { AnyCommandDefinition } from '../commands/command.js';
import type { Followers } from '../followers/followers.js';
import type { JobQueue } from '../queue/job-queue.port.js';
import { runsBackgroundWork, servesHttp, type ContextDefinition, type ProcessRole } from './context-definition.js';
import { ManifestError } from './context-manifest.js';

// Where @nestjs/cqrs's decorators record the command or query class a handler handles (it does not export the keys).
const COMMAND_HANDLER_METADATA = '__commandHandler__';
const QUERY_HANDLER_METADATA = '__queryHandler__';

/** What the modules registered, once Nest has started (onApplicationBootstrap has run). */
export interface Registered {
  commandHandlers: ReadonlyArray<{ handler: string; command: Function; definition: AnyCommandDefinition | undefined }>;
  queryHandlers: ReadonlyArray<{ handler: string; query: Function }>;
  /** Read models kept current by a log follower of this process (Followers). */
  followed: readonly string[];
  /** Queues a processor consumes in this process. */
  processed: readonly string[];
}

/** Start-up refusal: what the manifests declare is not what Nest registered. */
export class WiringError extends ManifestError {}

const processing = new WeakMap<JobQueue, Map<string, number>>();

/** Counts the processors started on `queue`, so the wiring check sees them (PlatformModule calls it). */
export function watchProcessors(queue: JobQueue): void {
  if (processing.has(queue)) return;
  const started = new Map<string, number>();
  processing.set(queue, started);
  const process = queue.process.bind(queue);
  queue.process = (name, handler, options) => {
    const worker = process(name, handler, options);
    started.set(name, (started.get(name) ?? 0) + 1);
    let closed = false;
    return {
      close: async () => {
        if (!closed) {
          closed = true;
          const count = (started.get(name) ?? 1) - 1;
          if (count > 0) started.set(name, count);
          else started.delete(name);
        }
        await worker.close();
      },
    };
  };
}

/** The queues with a running processor on `queue` (watchProcessors). */
export function processedQueues(queue: JobQueue): string[] {
  return [...(processing.get(queue)?.keys() ?? [])];
}

/** Reads what the application registered: @CommandHandler and @QueryHandler providers of every module, followers, processors. */
export function registeredIn(app: INestApplicationContext, followers: Followers, queue: JobQueue): Registered {
  const commandHandlers: Array<Registered['commandHandlers'][number]> = [];
  const queryHandlers: Array<Registered['queryHandlers'][number]> = [];
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.providers.values()) {
      const type = wrapper.metatype;
      if (typeof type !== 'function') continue;
      const command = Reflect.getMetadata(COMMAND_HANDLER_METADATA, type) as Function | undefined;
      if (command) {
        const instance = wrapper.instance as { declaration?: () => AnyCommandDefinition } | undefined;
        commandHandlers.push({ handler: type.name, command, definition: typeof instance?.declaration === 'function' ? instance.declaration() : undefined });
      }
      const query = Reflect.getMetadata(QUERY_HANDLER_METADATA, type) as Function | undefined;
      if (query) queryHandlers.push({ handler: type.name, query });
    }
  }
  return { commandHandlers, queryHandlers, followed: followers.readModels(), processed: processedQueues(queue) };
}

/**
 * The second start-up check (the first, checkManifests, reads declarations
 * only): compares what the contexts of the process declare with what Nest
 * registered, in this role.
 *
 * - Queues: every declared queue has a processor where background work runs
 *   (worker, all-in-one), none in the api role; no queue is processed that no
 *   manifest declares.
 * - Followers: every declared projection is followed where background work
 *   runs and nowhere else; every view of a context whose HTTP module runs in
 *   the role is followed; nothing undeclared is followed.
 * - Command handlers: every registered handler runs a declared definition
 *   (by its name, unique across the manifests);
 *   no command class or definition has two handlers; every command a context
 *   declares has exactly one handler in a role that serves the context's HTTP
 *   module (a worker module registers only what its background work
 *   dispatches, each of those declared); a missing one refuses.
 * - Query handlers: the same, with the manifest's query classes.
 */
export function wiringProblems(role: ProcessRole, definitions: readonly ContextDefinition[], registered: Registered): string[] {
  const problems: string[] = [];
  const background = runsBackgroundWork(role);
  const http = servesHttp(role);

  const jobOwners = new Map<string, string>();
  for (const { manifest } of definitions) for (const job of manifest.jobs ?? []) jobOwners.set(job, manifest.name);
  for (const [job, owner] of jobOwners) {
    if (background && !registered.processed.includes(job)) problems.push(`queue ${job} (declared by ${owner}) has no processor in the ${role} process`);
  }
  for (const job of registered.processed) {
    const owner = jobOwners.get(job);
    if (!owner) problems.push(`queue ${job} is processed but no context declares it (manifest jobs)`);
    else if (!background) problems.push(`queue ${job} (${owner}) is processed in the ${role} process: background work runs in the worker role only`);
  }

  const projectionOwners = new Map<string, string>();
  const viewOwners = new Map<string, string>();
  for (const { manifest } of definitions) {
    for (const name of manifest.readModels?.projections ?? []) projectionOwners.set(name, manifest.name);
    for (const name of manifest.readModels?.views ?? []) viewOwners.set(name, manifest.name);
  }
  const followed = new Set(registered.followed);
  for (const name of followed) {
    const projectionOwner = projectionOwners.get(name);
    if (projectionOwner && !background) problems.push(`projection ${name} (${projectionOwner}) is followed in the ${role} process: projections run in the worker role only`);
    if (!projectionOwner && !viewOwners.has(name)) problems.push(`a follower keeps ${name}, which no context declares (manifest readModels)`);
  }
  if (background) for (const [name, owner] of projectionOwners) if (!followed.has(name)) problems.push(`projection ${name} (declared by ${owner}) has no follower in the ${role} process`);
  if (http) {
    for (const definition of definitions) {
      if (!definition.http) continue;
      for (const name of definition.manifest.readModels?.views ?? []) if (!followed.has(name)) problems.push(`view ${name} (declared by ${definition.manifest.name}) has no follower in the ${role} process`);
    }
  }

  // Commands by name (unique across the manifests, checkManifests): a slice may run a variant of its declaration
  // (record-pings' per-customer copy without the request's wait) under the declared name.
  const commandOwners = new Map<string, string>();
  const queryOwners = new Map<Function, string>();
  for (const { manifest } of definitions) {
    for (const definition of manifest.commands ?? []) commandOwners.set(definition.name, manifest.name);
    for (const query of manifest.queries ?? []) queryOwners.set(query, manifest.name);
  }
  const handled = new Map<string, Set<string | Function>>();
  const handledBy = new Map<unknown, string[]>();
  const note = (key: unknown, handler: string) => handledBy.set(key, [...(handledBy.get(key) ?? []), handler]);
  for (const { handler, command, definition } of registered.commandHandlers) {
    note(command, handler);
    if (!definition) continue;
    const owner = commandOwners.get(definition.name);
    if (!owner) {
      problems.push(`command handler ${handler} runs ${definition.name}, which no context declares (manifest commands)`);
      continue;
    }
    note(definition.name, handler);
    handled.set(owner, (handled.get(owner) ?? new Set()).add(definition.name));
  }
  for (const { handler, query } of registered.queryHandlers) {
    note(query, handler);
    const owner = queryOwners.get(query);
    if (!owner) {
      problems.push(`query handler ${handler} handles ${query.name}, which no context declares (manifest queries)`);
      continue;
    }
    handled.set(owner, (handled.get(owner) ?? new Set()).add(query));
  }
  for (const [key, handlers] of handledBy) {
    if (handlers.length < 2) continue;
    const what = typeof key === 'function' ? key.name : String(key);
    problems.push(`${what} has ${handlers.length} handlers: ${handlers.join(', ')}`);
  }
  for (const definition of definitions) {
    const { manifest } = definition;
    // Complete where the context's HTTP module runs; a worker module registers only the handlers its background work dispatches.
    if (!(http && definition.http)) continue;
    const found = handled.get(manifest.name);
    problems.push(
      ...(manifest.commands ?? []).filter((command) => !found?.has(command.name)).map((command) => `command ${command.name} (${manifest.name}) has no @CommandHandler in the ${role} process`),
      ...(manifest.queries ?? []).filter((query) => !found?.has(query)).map((query) => `query ${query.name} (${manifest.name}) has no @QueryHandler in the ${role} process`),
    );
  }
  return problems;
}

/** Refuses the start (WiringError naming each difference) when the process's registrations do not match its contexts' manifests. */
export function checkWiring(
  app: INestApplicationContext,
  role: ProcessRole,
  definitions: readonly ContextDefinition[],
  followers: Followers,
  queue: JobQueue,
): void {
  const problems = wiringProblems(role, definitions, registeredIn(app, followers, queue));
  if (problems.length > 0) throw new WiringError(`the ${role} process is not wired as its contexts declare:\n- ${problems.join('\n- ')}`);
}
