import 'reflect-metadata';
import { createHash } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import {
  checkEncryptionKeyGiven,
  checkKeyFingerprint,
  checkManifests,
  DATA_ENCRYPTION_KEY_FILE,
  EncryptionKeyMismatchError,
  KEY_FINGERPRINT_EVENTS,
  ConfigError,
  DirectoryLease,
  Followers,
  LeaseKeeper,
  RedisLease,
  JsonLogger,
  loadConfig,
  openBackends,
  Readiness,
  ReadModels,
  registryOf,
  systemClock,
  tuneGarbageCollection,
  type ContextManifest,
  type EventRegistry,
  type ProcessRole,
  type Runtime,
} from '../../libs/platform/src/index.js';
import { projections } from '../../projections/index.js';
import { contexts } from './contexts.js';

/** Every context's manifest, from the one list of definitions (apps/shared/contexts.ts). Start-up checks that they fit together. */
export const manifests: readonly ContextManifest[] = contexts.map((context) => context.manifest);

/** Every context's stored event types: start-up refuses a projection handling anything else. */
export function eventRegistry(): EventRegistry {
  // The platform's own: the key fingerprint every process checks at start.
  return registryOf(manifests).register(...KEY_FINGERPRINT_EVENTS);
}

export { projections };

/** How long a worker's hold on the followers lease lasts unrenewed (a dead holder's followers resume elsewhere within it). */
export const FOLLOWERS_LEASE_TTL_MS = 10_000;
/** How often the holder renews it, and a standby tries to take it. */
export const FOLLOWERS_LEASE_RENEW_MS = 2_500;

/**
 * Workers scale out (docs/production.md, "Several workers"): jobs spread over
 * them, and the followers that write from a checkpoint (projections, the
 * Kafka relay, the webhook fan-out, consent stops) run in the one holding
 * this lease: on Redis when REDIS_URL is set, a kernel-released lock under
 * DATA_DIR otherwise. Tried once here, before any follower starts.
 */
async function followersLease(config: { redisUrl?: string; dataDir: string; eventStoreUrl?: string; mongodbUrl?: string; mongodbDatabase: string }, logger: JsonLogger): Promise<LeaseKeeper> {
  // One lease per deployment (the log followed and the read store written), not per Redis: deployments or test runs sharing a Redis keep apart.
  const log = config.eventStoreUrl ? config.eventStoreUrl : `embedded:${existsSync(config.dataDir) ? realpathSync(config.dataDir) : path.resolve(config.dataDir)}`;
  const scope = createHash('sha256').update(`${log}\n${config.mongodbUrl ?? 'embedded'}\n${config.mongodbDatabase}`).digest('hex').slice(0, 16);
  const lease = config.redisUrl ? RedisLease.open(config.redisUrl, `followers:${scope}`, FOLLOWERS_LEASE_TTL_MS) : new DirectoryLease(config.dataDir, 'followers');
  const keeper = new LeaseKeeper(lease, FOLLOWERS_LEASE_RENEW_MS, logger);
  await keeper.start();
  return keeper;
}

/**
 * Reads the configuration (and `.env`), opens the backends and registers their
 * health checks. In production mode (docs/adr/0033) DATA_ENCRYPTION_KEY must be
 * given, and every process checks it against the fingerprint the first one
 * recorded; either refusal exits 78 with a message naming the variable.
 */
export async function openRuntime(
  clientId: string,
  env: Record<string, string | undefined> = process.env,
  role: Exclude<ProcessRole, 'ops'> = 'all-in-one',
): Promise<Runtime> {
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
    checkEncryptionKeyGiven(config, role, existsSync(path.join(config.dataDir, DATA_ENCRYPTION_KEY_FILE)));
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`configuration error: ${error.message}\n`);
      process.exit(78);
    }
    throw error;
  }
  const logger = new JsonLogger(config.logLevel);
  // The process's own heap (GC_HEAP_GROWING_PERCENT, docs/adr/0044): not a test's, which passes an env of its own.
  if (env === process.env) tuneGarbageCollection(config.gcHeapGrowingPercent);
  checkManifests(manifests, projections);
  const backends = await openBackends(config, clientId, logger);
  try {
    await checkKeyFingerprint(backends.events, backends.secretBox, clientId);
  } catch (error) {
    if (error instanceof EncryptionKeyMismatchError) {
      process.stderr.write(`configuration error: ${error.message}\n`);
      process.exit(78);
    }
    throw error;
  }
  const readiness = new Readiness();
  readiness.add({ name: 'event_store', ping: () => backends.events.ping() });
  readiness.add({ name: 'read_store', ping: () => backends.readStore.ping() });
  readiness.add({ name: 'queue', ping: () => backends.queue.ping() });
  const publisher = backends.publisher;
  if (publisher) readiness.add({ name: 'integration', ping: () => publisher.ping() });
  readiness.add({ name: 'rate_limits', ping: () => backends.rateLimiter.ping() });
  const followers = new Followers(role === 'worker' ? await followersLease(config, logger) : undefined);
  readiness.add(followers.healthCheck());
  return { config, logger, clock: systemClock, backends, manifests, registry: eventRegistry(), readiness, readModels: new ReadModels(), followers };
}
