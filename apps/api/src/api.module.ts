import { DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { AccountsModule, ApiKeyGuard } from '../../../libs/accounts/src/index.js';
import { AuditModule } from '../../../libs/audit/src/index.js';
import { MonitoringModule } from '../../../libs/monitoring/src/index.js';
import { CheckpointPollingWaiter, PROJECTION_WAITER, type Runtime } from '../../../libs/platform/src/index.js';
import { projections } from '../../shared/runtime.js';

/**
 * The HTTP application: every bounded context's controllers behind the API-key
 * guard (the entry point imports PlatformModule). `projectionsInProcess` is true in the all-in-one process, where the
 * worker module provides the projection waiter; otherwise the api polls the
 * checkpoints the worker writes.
 */
@Module({})
export class ApiModule {
  static forRoot(runtime: Runtime, options: { projectionsInProcess: boolean }): DynamicModule {
    return {
      module: ApiModule,
      imports: [CqrsModule.forRoot(), AccountsModule, AuditModule, MonitoringModule],
      providers: [
        { provide: APP_GUARD, useClass: ApiKeyGuard },
        ...(options.projectionsInProcess
          ? []
          : [{ provide: PROJECTION_WAITER, useFactory: () => new CheckpointPollingWaiter(runtime.backends.readStore, projections) }]),
      ],
    };
  }
}
