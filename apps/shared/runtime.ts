import 'reflect-metadata';
import { accountsEventTypes } from '../../libs/accounts/src/index.js';
import { auditEventTypes } from '../../libs/audit/src/index.js';
import { monitoringEventTypes } from '../../libs/monitoring/src/index.js';
import { placesEventTypes } from '../../libs/places/src/index.js';
import { webhooksEventTypes } from '../../libs/webhooks/src/index.js';
import {
  ConfigError,
  EventRegistry,
  JsonLogger,
  loadConfig,
  openBackends,
  Readiness,
  systemClock,
  type Runtime,
} from '../../libs/platform/src/index.js';
import { projections } from '../../projections/index.js';

/** Every context's stored event types: start-up refuses a projection handling anything else. */
export function eventRegistry(): EventRegistry {
  return new EventRegistry().register(...auditEventTypes, ...accountsEventTypes, ...monitoringEventTypes, ...webhooksEventTypes, ...placesEventTypes);
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
  const backends = await openBackends(config, clientId, logger);
  const readiness = new Readiness();
  readiness.add({ name: 'event_store', ping: () => backends.events.ping() });
  readiness.add({ name: 'read_store', ping: () => backends.readStore.ping() });
  readiness.add({ name: 'queue', ping: () => backends.queue.ping() });
  const publisher = backends.publisher;
  if (publisher) readiness.add({ name: 'integration', ping: () => publisher.ping() });
  readiness.add({ name: 'rate_limits', ping: () => backends.rateLimiter.ping() });
  return { config, logger, clock: systemClock, backends, registry: eventRegistry(), readiness };
}
