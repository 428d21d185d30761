import type { DynamicModule, INestApplicationContext } from '@nestjs/common';
import {
  checkWiring,
  CONTEXT_DEFINITIONS,
  PlatformModule,
  PROCESS_ROLE,
  servesHttp,
  runsBackgroundWork,
  type ContextDefinition,
  type ProcessRole,
  type Runtime,
} from '../../libs/platform/src/index.js';
import { ApiModule } from '../api/src/api.module.js';
import { WorkerModule } from '../worker/src/worker.module.js';
import { contexts } from './contexts.js';

/** The root module of a composed process (the wiring check finds its definitions through it). */
class ProcessModule {}

/**
 * A process of `role` composed from the list of context definitions: the
 * platform (PROCESS_ROLE is `role`), the contexts' HTTP modules where the role
 * serves HTTP, the projections, relay, mail sender and the contexts' worker
 * modules where it runs background work.
 */
export function composeProcess(role: Exclude<ProcessRole, 'ops'>, runtime: Runtime, definitions: readonly ContextDefinition[] = contexts): DynamicModule {
  const http = servesHttp(role);
  return {
    module: ProcessModule,
    imports: [
      PlatformModule.forRoot(runtime, { http, role }),
      ...(runsBackgroundWork(role) ? [WorkerModule.forRoot(runtime, definitions)] : []),
      ...(http ? [ApiModule.forRoot(runtime, { projectionsInProcess: role === 'all-in-one' }, definitions)] : []),
    ],
    providers: [{ provide: CONTEXT_DEFINITIONS, useValue: definitions }],
  };
}

/**
 * The second start-up check, after `app.init()` (docs/adr/0015, "Manifests"):
 * what the contexts declare against what Nest registered. Throws WiringError,
 * which stops the start as the manifest check does. An application not built
 * by composeProcess (a test's module) has no definitions and is not checked.
 */
export function checkProcessWiring(app: INestApplicationContext, runtime: Runtime): void {
  let definitions: readonly ContextDefinition[];
  try {
    definitions = app.get<readonly ContextDefinition[]>(CONTEXT_DEFINITIONS, { strict: false });
  } catch {
    return;
  }
  const role = app.get<ProcessRole>(PROCESS_ROLE, { strict: false });
  // Every slice dispatches through @nestjs/cqrs: a declared command or query without its handler refuses the start.
  checkWiring(app, role, definitions, runtime.followers, runtime.backends.queue);
}
