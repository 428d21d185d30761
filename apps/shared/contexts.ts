import { accountsContext } from '../../libs/accounts/src/index.js';
import { addressingContext, BulkHexcodeJob, bulkHexcodeJobModule } from '../../libs/addressing/src/index.js';
import { auditContext } from '../../libs/audit/src/index.js';
import { bankingContext } from '../../libs/banking/src/index.js';
import { AuditExportJob, AuditExportJobModule, complianceContext, customerCopyJobBinding } from '../../libs/compliance/src/index.js';
import { consoleContext } from '../../libs/console/src/index.js';
import { identityContext } from '../../libs/identity/src/index.js';
import { jobsContext } from '../../libs/jobs/src/index.js';
import { languageContext } from '../../libs/language/src/index.js';
import { locatorContext } from '../../libs/locator/src/index.js';
import { monitoringContext } from '../../libs/monitoring/src/index.js';
import { Gazetteer, PlacesModule, placesContext } from '../../libs/places/src/index.js';
import { platformContext, type ContextDefinition } from '../../libs/platform/src/index.js';
import { RoadNetwork, RoutingModule, routingContext } from '../../libs/routing/src/index.js';
import { starterContext } from '../../libs/starter/src/index.js';
import { tilesContext } from '../../libs/tiles/src/index.js';
import { trafficContext } from '../../libs/traffic/src/index.js';
import { transitContext } from '../../libs/transit/src/index.js';
import { weatherContext } from '../../libs/weather/src/index.js';
import { webhooksContext } from '../../libs/webhooks/src/index.js';
import { WeatherAlertAreas, WeatherAlertAreasModule } from '../api/src/weather-alert-areas.js';

/** The reference places, for the contexts that resolve addresses over them (docs/adr/0014, 0016). */
const places = { module: PlacesModule, provider: Gazetteer };

/**
 * Every bounded context of the service, each as its one definition (manifest,
 * HTTP module, worker module, operator commands): the one list a new context
 * is added to (README, "Adding a context"). The api, worker, all-in-one and
 * ops processes are composed from it (apps/shared/compose.ts); the ports a
 * context needs from another are bound here, so neither imports the other.
 * The order is the HTTP modules' registration order.
 */
export const contexts: readonly ContextDefinition[] = [
  platformContext,
  accountsContext,
  // Reverse names its point with the places and the road network (issue 28, item 7).
  addressingContext(places, { module: RoutingModule, provider: RoadNetwork }),
  auditContext,
  complianceContext,
  monitoringContext,
  tilesContext,
  consoleContext,
  webhooksContext,
  placesContext,
  locatorContext,
  languageContext,
  transitContext,
  routingContext,
  // Portfolio risk's weather factor reads the CAP alerts (apps/api/src/weather-alert-areas.ts).
  bankingContext({ module: WeatherAlertAreasModule, provider: WeatherAlertAreas }),
  trafficContext,
  weatherContext,
  // After the server listens, /health stays 503 until the starter datasets are live (STARTER_DATA).
  starterContext,
  identityContext(places),
  // Work that outlives a request, run by the worker role: the kinds other contexts implement (issue 48, item 2).
  jobsContext([
    { module: AuditExportJobModule, provider: AuditExportJob },
    customerCopyJobBinding,
    { module: bulkHexcodeJobModule(places), provider: BulkHexcodeJob },
  ]),
];
