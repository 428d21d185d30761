import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AccountsModule, ApiKeyGuard } from '../../../libs/accounts/src/index.js';
import { AddressingModule } from '../../../libs/addressing/src/index.js';
import { AuditModule } from '../../../libs/audit/src/index.js';
import { MonitoringModule } from '../../../libs/monitoring/src/index.js';
import { WebhooksModule } from '../../../libs/webhooks/src/index.js';
import { TilesModule } from '../../../libs/tiles/src/index.js';
import { Gazetteer, PlacesModule } from '../../../libs/places/src/index.js';
import { StarterModule } from '../../../libs/starter/src/index.js';
import { RoutingModule } from '../../../libs/routing/src/index.js';
import { checkpointPollingWaiter, PROJECTION_WAITER, type Runtime } from '../../../libs/platform/src/index.js';
import { projections } from '../../shared/runtime.js';
import { PlannedEndpointsModule } from './not-implemented.js';

/**
 * The HTTP application: every bounded context's controllers behind the API-key
 * guard (the entry point imports PlatformModule). `projectionsInProcess` is true in the all-in-one process, where the
 * worker module provides the projection waiter; otherwise the api polls the
 * checkpoints the worker writes.
 */
/**
 * The api process's projection waiter when the worker runs elsewhere: it polls
 * the checkpoints the worker writes. Global, as WorkerModule's in-process one
 * is, so every context's command handlers can wait on their read models.
 */
@Global()
@Module({})
class PollingWaiterModule {
  static forRoot(runtime: Runtime): DynamicModule {
    const { readModels, backends } = runtime;
    for (const projection of projections) readModels.register(projection.name, checkpointPollingWaiter(backends.readStore, projection));
    const provider = { provide: PROJECTION_WAITER, useValue: { waitFor: (name: string, position: bigint, timeoutMs: number) => readModels.waitFor(name, position, timeoutMs) } };
    return { module: PollingWaiterModule, providers: [provider], exports: [PROJECTION_WAITER] };
  }
}

@Module({})
export class ApiModule {
  static forRoot(runtime: Runtime, options: { projectionsInProcess: boolean }): DynamicModule {
    return {
      module: ApiModule,
      imports: [
        ...(options.projectionsInProcess ? [] : [PollingWaiterModule.forRoot(runtime)]),
        AccountsModule,
        // Resolve reads the reference places through a port: places already depends on addressing (docs/adr/0014).
        AddressingModule.withPlaces({ module: PlacesModule, provider: Gazetteer }),
        AuditModule,
        MonitoringModule,
        TilesModule,
        WebhooksModule,
        PlacesModule,
        RoutingModule,
        PlannedEndpointsModule,
        // After the server listens, /health stays 503 until the starter datasets are live (STARTER_DATA).
        StarterModule,
      ],
      providers: [{ provide: APP_GUARD, useClass: ApiKeyGuard }],
    };
  }
}
