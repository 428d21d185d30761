import 'reflect-metadata';
import { accountsManifest } from '../../libs/accounts/src/index.js';
import { addressingManifest } from '../../libs/addressing/src/index.js';
import { auditManifest } from '../../libs/audit/src/index.js';
import { bankingManifest } from '../../libs/banking/src/index.js';
import { identityManifest } from '../../libs/identity/src/index.js';
import { languageManifest } from '../../libs/language/src/index.js';
import { locatorManifest } from '../../libs/locator/src/index.js';
import { monitoringManifest } from '../../libs/monitoring/src/index.js';
import { placesManifest } from '../../libs/places/src/index.js';
import { transitManifest } from '../../libs/transit/src/index.js';
import { routingManifest } from '../../libs/routing/src/index.js';
import { trafficManifest } from '../../libs/traffic/src/index.js';
import { weatherManifest } from '../../libs/weather/src/index.js';
import { webhooksManifest } from '../../libs/webhooks/src/index.js';
import { complianceManifest } from '../../libs/compliance/src/index.js';
import { tilesManifest } from '../../libs/tiles/src/index.js';
import {
  checkManifests,
  ConfigError,
  Followers,
  JsonLogger,
  loadConfig,
  openBackends,
  platformManifest,
  Readiness,
  ReadModels,
  registryOf,
  systemClock,
  type ContextManifest,
  type EventRegistry,
  type Runtime,
} from '../../libs/platform/src/index.js';
import { projections } from '../../projections/index.js';

/**
 * Every bounded context of the service: the one list a new context is added
 * to (README, "Adding a context"). Start-up checks that they fit together.
 */
export const manifests: readonly ContextManifest[] = [platformManifest, auditManifest, accountsManifest, monitoringManifest, webhooksManifest, placesManifest, identityManifest, locatorManifest, languageManifest, transitManifest, routingManifest, bankingManifest, complianceManifest, trafficManifest, weatherManifest, addressingManifest, tilesManifest];

/** Every context's stored event types: start-up refuses a projection handling anything else. */
export function eventRegistry(): EventRegistry {
  return registryOf(manifests);
}

export { projections };

/** Reads the configuration (and `.env`), opens the backends and registers their health checks. */
export async function openRuntime(clientId: string, env: Record<string, string | undefined> = process.env): Promise<Runtime> {
  if (env === process.env) {
    try {
      process.loadEnvFile('.env');
    } catch {
      // No .env file: configuration comes from the environment alone.
    }
  }
  let config;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`configuration error: ${error.message}\n`);
      process.exit(78);
    }
    throw error;
  }
  const logger = new JsonLogger(config.logLevel);
  checkManifests(manifests, projections);
  const backends = await openBackends(config, clientId, logger);
  const readiness = new Readiness();
  readiness.add({ name: 'event_store', ping: () => backends.events.ping() });
  readiness.add({ name: 'read_store', ping: () => backends.readStore.ping() });
  readiness.add({ name: 'queue', ping: () => backends.queue.ping() });
  const publisher = backends.publisher;
  if (publisher) readiness.add({ name: 'integration', ping: () => publisher.ping() });
  readiness.add({ name: 'rate_limits', ping: () => backends.rateLimiter.ping() });
  const followers = new Followers();
  readiness.add(followers.healthCheck());
  return { config, logger, clock: systemClock, backends, manifests, registry: eventRegistry(), readiness, readModels: new ReadModels(), followers };
}
