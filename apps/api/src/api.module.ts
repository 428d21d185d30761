import { DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApiKeyGuard } from '../../../libs/accounts/src/index.js';
import { checkpointPollingWaiter, type ContextDefinition, type ModuleImport, type Runtime } from '../../../libs/platform/src/index.js';
import { contexts } from '../../shared/contexts.js';
import { projections } from '../../shared/runtime.js';
import { PlannedEndpointsModule } from './not-implemented.js';

/**
 * The HTTP application: every context's HTTP module (apps/shared/contexts.ts)
 * behind the API-key guard (the entry point imports PlatformModule).
 * `projectionsInProcess` is true in the all-in-one process, where the worker
 * module registers each projection as a read model commands wait for;
 * otherwise the api registers waiters that poll the checkpoints the worker
 * writes. No background work runs here (the worker role's).
 */
@Module({})
export class ApiModule {
  static forRoot(runtime: Runtime, options: { projectionsInProcess: boolean }, definitions: readonly ContextDefinition[] = contexts): DynamicModule {
    if (!options.projectionsInProcess) {
      for (const projection of projections) runtime.readModels.register(projection.name, checkpointPollingWaiter(runtime.backends.readStore, projection));
    }
    return {
      module: ApiModule,
      imports: [...definitions.flatMap((definition): ModuleImport[] => (definition.http ? [definition.http] : [])), PlannedEndpointsModule],
      providers: [{ provide: APP_GUARD, useClass: ApiKeyGuard }],
    };
  }
}
