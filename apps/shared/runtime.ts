import 'reflect-metadata';
import {
  checkManifests,
  ConfigError,
  Followers,
  JsonLogger,
  loadConfig,
  openBackends,
  Readiness,
  ReadModels,
  registryOf,
  systemClock,
  type ContextManifest,
  type EventRegistry,
  type Runtime,
} from '../../libs/platform/src/index.js';
import { projections } from '../../projections/index.js';
import { contexts } from './contexts.js';

/** Every context's manifest, from the one list of definitions (apps/shared/contexts.ts). Start-up checks that they fit together. */
export const manifests: readonly ContextManifest[] = contexts.map((context) => context.manifest);

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
