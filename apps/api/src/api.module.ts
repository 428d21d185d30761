import { DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AccountsModule, ApiKeyGuard } from '../../../libs/accounts/src/index.js';
import { AddressingModule } from '../../../libs/addressing/src/index.js';
import { AuditModule } from '../../../libs/audit/src/index.js';
import { BankingModule } from '../../../libs/banking/src/index.js';
import { ComplianceModule } from '../../../libs/compliance/src/index.js';
import { IdentityModule } from '../../../libs/identity/src/index.js';
import { LanguageModule } from '../../../libs/language/src/index.js';
import { LocatorModule } from '../../../libs/locator/src/index.js';
import { MonitoringModule } from '../../../libs/monitoring/src/index.js';
import { WebhooksModule } from '../../../libs/webhooks/src/index.js';
import { TilesModule } from '../../../libs/tiles/src/index.js';
import { ConsoleModule } from '../../../libs/console/src/index.js';
import { Gazetteer, PlacesModule } from '../../../libs/places/src/index.js';
import { StarterModule } from '../../../libs/starter/src/index.js';
import { TransitModule } from '../../../libs/transit/src/index.js';
import { checkpointPollingWaiter, type Runtime } from '../../../libs/platform/src/index.js';
import { RoutingModule } from '../../../libs/routing/src/index.js';
import { TrafficModule } from '../../../libs/traffic/src/index.js';
import { WeatherModule } from '../../../libs/weather/src/index.js';
import { projections } from '../../shared/runtime.js';
import { PlannedEndpointsModule } from './not-implemented.js';
import { WeatherAlertAreas, WeatherAlertAreasModule } from './weather-alert-areas.js';

/**
 * The HTTP application: every bounded context's controllers behind the API-key
 * guard (the entry point imports PlatformModule). `projectionsInProcess` is
 * true in the all-in-one process, where the worker module registers each
 * projection as a read model commands wait for; otherwise the api registers
 * waiters that poll the checkpoints the worker writes.
 */
@Module({})
export class ApiModule {
  static forRoot(runtime: Runtime, options: { projectionsInProcess: boolean }): DynamicModule {
    if (!options.projectionsInProcess) {
      for (const projection of projections) runtime.readModels.register(projection.name, checkpointPollingWaiter(runtime.backends.readStore, projection));
    }
    return {
      module: ApiModule,
      imports: [
        AccountsModule,
        // Resolve reads the reference places through a port: places already depends on addressing (docs/adr/0014).
        AddressingModule.withPlaces({ module: PlacesModule, provider: Gazetteer }),
        AuditModule,
        ComplianceModule,
        MonitoringModule,
        TilesModule,
        ConsoleModule,
        WebhooksModule,
        PlacesModule,
        LocatorModule,
        LanguageModule,
        TransitModule,
        RoutingModule,
        // Portfolio risk's weather factor reads the CAP alerts (apps/api/src/weather-alert-areas.ts).
        BankingModule.withAlertAreas({ module: WeatherAlertAreasModule, provider: WeatherAlertAreas }),
        TrafficModule,
        WeatherModule,
        PlannedEndpointsModule,
        // After the server listens, /health stays 503 until the starter datasets are live (STARTER_DATA).
        StarterModule,
        // Claimed addresses are resolved over the same reference places (docs/adr/0016).
        IdentityModule.withPlaces({ module: PlacesModule, provider: Gazetteer }),
      ],
      providers: [{ provide: APP_GUARD, useClass: ApiKeyGuard }],
    };
  }
}
