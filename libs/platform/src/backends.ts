import type { Config } from './config/config.js';
import { EmbeddedDataKeyVault, MongoDataKeyVault, SecretBox, type DataKeyVault } from './crypto/index.js';
import { MailQueue, openMailer, type Mailer } from './mail/index.js';
import { openRateLimiter } from './rate-limit/index.js';
import type { RateLimiter } from './rate-limit/rate-limiter.port.js';
import type { JsonLogger } from './logging/json-logger.js';
import { openEventStore } from './event-store/index.js';
import type { EventStore } from './event-store/event-store.port.js';
import { openIntegrationPublisher } from './integration/index.js';
import type { IntegrationPublisher } from './integration/integration-bus.port.js';
import { openJobQueue } from './queue/index.js';
import type { JobQueue } from './queue/job-queue.port.js';
import { openReadStore } from './read-store/index.js';
import type { ReadStore } from './read-store/read-store.port.js';

/**
 * The four backends behind their ports, chosen by configuration: the
 * production adapter when its URL is set, the embedded one under DATA_DIR
 * otherwise (decisions.md, "Running it").
 */
export interface Backends {
  events: EventStore;
  readStore: ReadStore;
  queue: JobQueue;
  /** Absent when KAFKA_BROKERS is unset: no relay. */
  publisher?: IntegrationPublisher;
  /** Quota and throttle counters: Redis when REDIS_URL is set, in-process and journaled under DATA_DIR otherwise. */
  rateLimiter: RateLimiter;
  /** Secrets at rest (DATA_ENCRYPTION_KEY, or a key generated into DATA_DIR). */
  secretBox: SecretBox;
  /** Per-customer data keys for crypto-shredding: MongoDB when MONGODB_URL is set, files under DATA_DIR otherwise. */
  dataKeys: DataKeyVault;
  mailer: Mailer;
  /** Mail goes through the job queue, sealed, and is retried there. */
  mailQueue: MailQueue;
}

export async function openBackends(config: Config, clientId: string, logger?: JsonLogger): Promise<Backends> {
  const events = await openEventStore({ eventStoreUrl: config.eventStoreUrl, dataDir: config.dataDir });
  const readStore = await openReadStore({ mongodbUrl: config.mongodbUrl, mongodbDatabase: config.mongodbDatabase, dataDir: config.dataDir });
  const queue = await openJobQueue({ redisUrl: config.redisUrl, dataDir: config.dataDir });
  const rateLimiter = await openRateLimiter({
    redisUrl: config.redisUrl,
    dataDir: config.dataDir,
    onError: logger ? (error) => logger.pino.error({ component: 'rate-limits', err: error }, 'rate-limit counters failed') : undefined,
  });
  const secretBox = await SecretBox.fromConfig({ dataEncryptionKey: config.dataEncryptionKey, dataDir: config.dataDir });
  const dataKeys = config.mongodbUrl
    ? await MongoDataKeyVault.open(config.mongodbUrl, config.mongodbDatabase, secretBox)
    : await EmbeddedDataKeyVault.open(config.dataDir, secretBox);
  const mailer = await openMailer({ smtpUrl: config.smtpUrl, dataDir: config.dataDir, from: config.mailFrom });
  const mailQueue = new MailQueue({ queue, mailer, secretBox, logger: logger ?? { warn: () => undefined, error: () => undefined } });
  const publisher = openIntegrationPublisher({
    kafkaBrokers: config.kafkaBrokers,
    clientId,
    log: logger ? (level, message, context) => logger.pino[level === 'error' ? 'error' : level === 'warn' ? 'warn' : 'debug']({ component: 'kafka', ...context }, message) : undefined,
  });
  return { events, readStore, queue, publisher, rateLimiter, secretBox, dataKeys, mailer, mailQueue };
}

/** Closes in reverse order of dependence; every close is attempted even if one fails. */
export async function closeBackends(backends: Backends): Promise<void> {
  const results = await Promise.allSettled([backends.publisher?.close(), backends.queue.close(), backends.rateLimiter.close(), backends.mailer.close(), backends.dataKeys.close()]);
  results.push(...(await Promise.allSettled([backends.readStore.close(), backends.events.close()])));
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
}

export function describeBackends(config: Config): Record<string, string> {
  return {
    event_store: config.eventStoreUrl ? 'eventstoredb' : 'embedded',
    read_store: config.mongodbUrl ? 'mongodb' : 'embedded',
    queue: config.redisUrl ? 'bullmq' : 'embedded',
    integration: config.kafkaBrokers ? 'kafka' : 'none',
    rate_limits: config.redisUrl ? 'redis' : 'embedded',
    mail: config.smtpUrl ? 'smtp' : 'outbox',
  };
}
