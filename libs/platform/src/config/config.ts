import { availableParallelism } from 'node:os';
import path from 'node:path';

/**
 * The only place that reads process.env (shared/spec/decisions.md, "Running it").
 * Loaded once at start-up; an invalid value stops the process with a clear message.
 */
export interface Config {
  port: number;
  /** HEALTH_PORT: the worker answers /health, /health/ready and /health/live here (docs/adr/0033); unset: no health port. */
  healthPort?: number;
  host: string;
  dataDir: string;
  nodeEnv: 'production' | 'development' | 'test';
  adminApiKey?: string;
  authDisabled: boolean;
  trustProxy: boolean;
  smtpUrl?: string;
  mailFrom: string;
  eventStoreUrl?: string;
  mongodbUrl?: string;
  mongodbDatabase: string;
  kafkaBrokers?: string[];
  kafkaTopicPrefix: string;
  redisUrl?: string;
  /** WEBHOOK_ALLOW_PRIVATE_URLS when set; unset: allowed only in development and test (decisions.md). */
  webhookAllowPrivateUrls: boolean;
  /** How long a webhook receiver has to answer one delivery attempt (connect, send, status line). */
  webhookTimeoutMs: number;
  /** Delays before webhook retry 1, 2, …; the number of entries is the number of retries (the cap). */
  webhookRetryDelaysMs: number[];
  /** Webhook attempts in flight at once per worker process. */
  webhookConcurrency: number;
  dataEncryptionKey?: string;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /** Largest accepted request body in bytes. */
  bodyLimitBytes: number;
  /** How long a client has to send a whole request, headers and body; then 408 and the connection is closed. */
  requestTimeoutMs: number;
  /** How long a client has to send the request line and headers; at most requestTimeoutMs. */
  headersTimeoutMs: number;
  /** How long a read-your-own-write command waits for projections. */
  projectionWaitMs: number;
  shutdownTimeoutMs: number;
  /** Where Google's ID-token signing keys are fetched (POST /v2/auth/google/mobile). */
  googleJwksUrl: string;
  /** OAuth client ids a Google ID token may be issued to; empty: Google sign-in is off. */
  googleClientIds: string[];
  /** Lifetime of a personal token from /v2/auth/login or /v2/auth/google/mobile. */
  personalTokenTtlDays: number;
  /** bcrypt cost (log2 rounds) for new password hashes. */
  bcryptCost: number;
  /**
   * Per-IP requests per minute on the routing, navigation and language endpoints (interface.md, "Limits" 5);
   * `public`: the ceiling of requests without a valid key outside those groups (public endpoints, 401s, 404s).
   * Keyed callers (docs/adr/0060): these are the free tier's per-key rates, which the other tiers multiply, and
   * `keyedIpFactor` (THROTTLE_KEYED_IP_FACTOR) times a group's rate bounds all keyed callers of one IP together.
   */
  throttles: { routing: number; navigation: number; language: number; public: number; burstSeconds: number; keyedIpFactor: number };
  /**
   * PUBLIC_BODY_LIMIT_BYTES: largest JSON body from a caller without a valid key on a route that declares no
   * budget of its own (issue 31); keyed callers keep BODY_LIMIT_BYTES.
   */
  publicBodyLimitBytes: number;
  /**
   * EXPENSIVE_CONCURRENCY_PER_KEY: expensive requests (bulk, service areas, isochrones, portfolio risk) one key may
   * have in flight, across every api process sharing REDIS_URL (in this process without it).
   */
  expensiveConcurrencyPerKey: number;
  /**
   * Load shedding (@fastify/under-pressure): while the event loop's mean delay over a sample exceeds
   * OVERLOAD_EVENT_LOOP_DELAY_MS (0 turns it off), or the V8 heap in use exceeds OVERLOAD_HEAP_USED_MB (0: 90 % of
   * V8's heap limit), every request but the health checks and the metrics is answered 503 SERVICE_BUSY with
   * Retry-After OVERLOAD_RETRY_AFTER_SECONDS, before its body is read.
   */
  overload: { eventLoopDelayMs: number; heapUsedMb: number; retryAfterSeconds: number };
  /** V8's heap growing factor as 1 + percent / 100 (docs/adr/0044); 0 leaves V8's own. */
  gcHeapGrowingPercent: number;
  /** With AUTH_DISABLED (development only): requests per rolling 24 h per client IP. */
  devIpDailyLimit: number;
  /** SIGNUP_LIMIT_PER_IP_PER_HOUR: signups accepted from one client IP in a rolling hour (decisions.md). */
  signupLimitPerIpPerHour: number;
  /** Folder of the PMTiles archives served at /v2/tiles/{name}. */
  tilesDir: string;
  /** Cache-Control max-age of a served archive, in seconds. */
  tilesMaxAgeS: number;
  /** Import the bundled starter pack's dataset of each kind that has no live dataset, on start (STARTER_DATA, decisions.md). */
  starterData: boolean;
  /**
   * PUBLIC_BASE_URL: where clients reach this deployment, without a trailing
   * slash; signed certificates and receipts name it as their issuer (`iss`),
   * and their keys are served under it at /v2/.well-known/jwks.json.
   */
  publicBaseUrl: string;
  /** The language services' provider, GhanaNLP's Khaya API (docs/adr/0021); without a key they answer 503 LANGUAGE_QUOTA. */
  language: LanguageConfig;
  /** GRAPHHOPPER_URL: routes come from this GraphHopper server instead of the embedded engine (docs/adr/0018). */
  graphhopperUrl?: string;
  /** AUDIT_CHECKPOINT_INTERVAL_S: seconds between signed checkpoints of the access chains that moved (docs/adr/0023); 0 turns them off. */
  auditCheckpointIntervalS: number;
  /** ARCHIVE_DIR: where closed months of the access chains go (docs/adr/0024); the embedded stand-in for write-once object storage. */
  archiveDir: string;
  /** AUDIT_LIVE_WINDOW_S: how long access entries stay in the live store before their month is archived and trimmed (default 13 × 31 days). */
  auditLiveWindowS: number;
  /** AUDIT_RETENTION_INTERVAL_S: seconds between the worker's archive runs (docs/adr/0024); 0 turns them off (the CLI's `audit:archive` still runs). */
  auditRetentionIntervalS: number;
  /** AUDIT_RETENTION_CLOCK_OFFSET_S: seconds added to the clock the archive job reads, so tests and drills close months in seconds; refused in production. */
  auditRetentionClockOffsetS: number;
  /** AUDIT_ARCHIVE_TEST_KILL_AT (NODE_ENV=test only): `STEP[:N]` — the archive job SIGKILLs itself after the Nth time it completes STEP (its kill test). */
  auditArchiveTestKillAt?: string;
  /** ACCESS_REQUESTS_PER_ACCOUNT_PER_HOUR: customers' copies (POST /v2/consent/access-request, pages included) one account may ask for in a rolling hour; then 429 RATE_LIMITED with Retry-After. */
  accessRequestsPerAccountPerHour: number;
  /** Weather (docs/adr/0026): CAP feeds to poll and the precipitation forecast provider. */
  weather: WeatherConfig;
  /** TRANSIT_WORKERS: threads planning POST /v2/route/transit off the event loop (docs/adr/0019); 0 plans on the event loop. */
  transitWorkers: number;
  /** HEXCODE_WORKERS: threads parsing, validating, coding and serialising POST /v2/hexcode/bulk off the event loop (docs/adr/0041); 0 on the event loop. */
  hexcodeWorkers: number;
}

export interface WeatherConfig {
  /** WEATHER_CAP_FEEDS: RSS/Atom feeds listing CAP alert links (comma-separated http(s) URLs). */
  capFeeds: string[];
  /** WEATHER_CAP_POLL_MINUTES: how often the feeds are polled. */
  capPollMinutes: number;
  /** PRECIPITATION_FORECAST_URL: base URL of an Open-Meteo compatible forecast API (…/v1/forecast is appended). */
  forecastUrl?: string;
}

export interface LanguageConfig {
  /** KHAYA_API_URL: base URL of the Khaya API (https; http only outside production, the key would travel in the clear). */
  khayaApiUrl: string;
  /** KHAYA_API_KEY: the subscription key, sent as Ocp-Apim-Subscription-Key; unset: the language services are unconfigured. */
  khayaApiKey?: string;
  /** KHAYA_TIMEOUT_MS: how long one provider call may take, answer included. */
  providerTimeoutMs: number;
  /** LANGUAGE_AUDIO_MAX_BYTES: largest audio upload to POST /v2/language/transcribe. */
  audioMaxBytes: number;
}

export class ConfigError extends Error {}

/**
 * Production mode (docs/adr/0033): the process shares state with others, so
 * it is one of several that must agree on secrets: any shared-server URL is
 * set, or it is one half of the api/worker split. Only the embedded
 * single-process mode (`npm start`) may generate its own DATA_ENCRYPTION_KEY.
 */
export function isProductionMode(config: Pick<Config, 'eventStoreUrl' | 'mongodbUrl' | 'redisUrl' | 'kafkaBrokers'>, role: string): boolean {
  return role === 'api' || role === 'worker' || Boolean(config.eventStoreUrl || config.mongodbUrl || config.redisUrl || config.kafkaBrokers?.length);
}

/** Refuses a production-mode process that would generate a key of its own (no DATA_ENCRYPTION_KEY, no key file yet). */
export function checkEncryptionKeyGiven(config: Config, role: string, keyFileExists: boolean): void {
  if (config.dataEncryptionKey || keyFileExists || !isProductionMode(config, role)) return;
  throw new ConfigError(
    'DATA_ENCRYPTION_KEY is required in production mode (a shared-server URL is set, or this is the api or worker process): ' +
      'each process would otherwise generate a key of its own and none could open what another sealed. ' +
      'Generate one with `openssl rand -base64 32` and give every process the same value',
  );
}

/**
 * Webhook retries (interface.md, "Receiver rules" 5: an immediate retry, then
 * increasing delays): at once, 10 s, 1 min, 5 min, 15 min, 30 min, then
 * doubling from 1 h to 16 h. 11 retries, 12 attempts in all, the last about
 * 31 h 50 min after the first; docs/adr/0010-webhook-delivery.md says why.
 */
export const DEFAULT_WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [
  0,
  10_000,
  60_000,
  5 * 60_000,
  15 * 60_000,
  30 * 60_000,
  60 * 60_000,
  2 * 60 * 60_000,
  4 * 60 * 60_000,
  8 * 60 * 60_000,
  16 * 60 * 60_000,
];

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): Config {
  const nodeEnv = oneOf(env, 'NODE_ENV', ['production', 'development', 'test'] as const, 'production');
  const authDisabled = flag(env, 'AUTH_DISABLED');
  if (authDisabled && nodeEnv !== 'development') {
    throw new ConfigError('AUTH_DISABLED=true is honoured only with NODE_ENV=development; refusing to start');
  }
  const kafka = optional(env, 'KAFKA_BROKERS');
  // Slow-loris defence (issue #10): without a request time-out a client trickling a declared body holds its connection for ever.
  const requestTimeoutMs = int(env, 'REQUEST_TIMEOUT_MS', 30_000, 100, 600_000);
  const headersTimeoutMs = int(env, 'HEADERS_TIMEOUT_MS', Math.min(10_000, requestTimeoutMs), 100, 600_000);
  // Node refuses a headers time-out longer than the request time-out, and the headers are part of the request.
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError(`HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not exceed REQUEST_TIMEOUT_MS (${requestTimeoutMs})`);
  }
  const googleClientIds = optional(env, 'GOOGLE_CLIENT_IDS');
  // Moving the archive job's clock forward takes months out of the live store early: only where nothing is kept for real.
  const auditRetentionClockOffsetS = int(env, 'AUDIT_RETENTION_CLOCK_OFFSET_S', 0, -100 * 366 * 86_400, 100 * 366 * 86_400);
  if (auditRetentionClockOffsetS !== 0 && nodeEnv === 'production') throw new ConfigError('AUDIT_RETENTION_CLOCK_OFFSET_S is honoured only outside NODE_ENV=production; refusing to start');
  const auditArchiveTestKillAt = optional(env, 'AUDIT_ARCHIVE_TEST_KILL_AT');
  if (auditArchiveTestKillAt && nodeEnv !== 'test') throw new ConfigError('AUDIT_ARCHIVE_TEST_KILL_AT is a test hook, honoured only with NODE_ENV=test; refusing to start');
  return {
    port: int(env, 'PORT', 8080, 0, 65535),
    healthPort: optional(env, 'HEALTH_PORT') === undefined ? undefined : int(env, 'HEALTH_PORT', 0, 1, 65535),
    host: optional(env, 'HOST') ?? '0.0.0.0',
    dataDir: path.resolve(optional(env, 'DATA_DIR') ?? './data'),
    nodeEnv,
    adminApiKey: optional(env, 'ADMIN_API_KEY'),
    authDisabled,
    trustProxy: flag(env, 'TRUST_PROXY'),
    smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom: optional(env, 'MAIL_FROM') ?? 'no-reply@location-api.local',
    eventStoreUrl: url(env, 'EVENTSTORE_URL', ['esdb:', 'esdb+discover:', 'kurrentdb:', 'kdb:']),
    mongodbUrl: url(env, 'MONGODB_URL', ['mongodb:', 'mongodb+srv:']),
    mongodbDatabase: optional(env, 'MONGODB_DATABASE') ?? 'location_api',
    kafkaBrokers: kafka ? kafka.split(',').map((b) => b.trim()).filter(Boolean) : undefined,
    kafkaTopicPrefix: optional(env, 'KAFKA_TOPIC_PREFIX') ?? 'location-api',
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    // An explicit false also holds in development and test, so SSRF refusal can be tried out there.
    webhookAllowPrivateUrls: optional(env, 'WEBHOOK_ALLOW_PRIVATE_URLS') === undefined ? nodeEnv !== 'production' : flag(env, 'WEBHOOK_ALLOW_PRIVATE_URLS'),
    webhookTimeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000),
    webhookRetryDelaysMs: delays(env, 'WEBHOOK_RETRY_DELAYS_MS', DEFAULT_WEBHOOK_RETRY_DELAYS_MS),
    webhookConcurrency: int(env, 'WEBHOOK_CONCURRENCY', 16, 1, 256),
    dataEncryptionKey: optional(env, 'DATA_ENCRYPTION_KEY'),
    logLevel: oneOf(env, 'LOG_LEVEL', ['debug', 'info', 'warn', 'error', 'silent'] as const, nodeEnv === 'test' ? 'warn' : 'info'),
    bodyLimitBytes: int(env, 'BODY_LIMIT_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
    requestTimeoutMs,
    headersTimeoutMs,
    projectionWaitMs: int(env, 'PROJECTION_WAIT_MS', 5000, 0, 60000),
    shutdownTimeoutMs: int(env, 'SHUTDOWN_TIMEOUT_MS', 8000, 100, 60000),
    throttles: {
      routing: int(env, 'THROTTLE_ROUTING_PER_MINUTE', 60, 1, 100_000),
      navigation: int(env, 'THROTTLE_NAVIGATION_PER_MINUTE', 120, 1, 100_000),
      language: int(env, 'THROTTLE_LANGUAGE_PER_MINUTE', 20, 1, 100_000),
      public: int(env, 'THROTTLE_PUBLIC_PER_MINUTE', 600, 1, 100_000_000),
      // A tenth of a minute's allowance per 10 s: a minute's worth cannot land in one second (issue 31).
      burstSeconds: int(env, 'THROTTLE_BURST_SECONDS', 10, 1, 60),
      // Four times the enterprise tier's factor (50): only a flood of keys from one address meets it (docs/adr/0060).
      keyedIpFactor: int(env, 'THROTTLE_KEYED_IP_FACTOR', 200, 1, 100_000),
    },
    publicBodyLimitBytes: int(env, 'PUBLIC_BODY_LIMIT_BYTES', 16 * 1024, 1024, 64 * 1024 * 1024),
    expensiveConcurrencyPerKey: int(env, 'EXPENSIVE_CONCURRENCY_PER_KEY', 2, 1, 1000),
    overload: {
      eventLoopDelayMs: int(env, 'OVERLOAD_EVENT_LOOP_DELAY_MS', 1000, 0, 600_000),
      // 0: 90 % of V8's heap limit (--max-old-space-size), read when the service starts.
      heapUsedMb: int(env, 'OVERLOAD_HEAP_USED_MB', 0, 0, 1_000_000),
      retryAfterSeconds: int(env, 'OVERLOAD_RETRY_AFTER_SECONDS', 5, 1, 3600),
    },
    gcHeapGrowingPercent: int(env, 'GC_HEAP_GROWING_PERCENT', 100, 0, 1000),
    devIpDailyLimit: int(env, 'DEV_IP_DAILY_LIMIT', 1000, 1, 10_000_000),
    signupLimitPerIpPerHour: int(env, 'SIGNUP_LIMIT_PER_IP_PER_HOUR', 20, 1, 10_000_000),
    tilesDir: path.resolve(optional(env, 'TILES_DIR') ?? path.join(optional(env, 'DATA_DIR') ?? './data', 'tiles')),
    tilesMaxAgeS: int(env, 'TILES_MAX_AGE_S', 3600, 0, 31_536_000),
    auditCheckpointIntervalS: int(env, 'AUDIT_CHECKPOINT_INTERVAL_S', 300, 0, 86_400),
    archiveDir: path.resolve(optional(env, 'ARCHIVE_DIR') ?? path.join(optional(env, 'DATA_DIR') ?? './data', 'archive')),
    auditLiveWindowS: int(env, 'AUDIT_LIVE_WINDOW_S', 13 * 31 * 86_400, 0, 100 * 366 * 86_400),
    auditRetentionIntervalS: int(env, 'AUDIT_RETENTION_INTERVAL_S', 86_400, 0, 31 * 86_400),
    auditRetentionClockOffsetS,
    auditArchiveTestKillAt,
    accessRequestsPerAccountPerHour: int(env, 'ACCESS_REQUESTS_PER_ACCOUNT_PER_HOUR', 60, 1, 1_000_000),
    starterData: optional(env, 'STARTER_DATA') === undefined ? true : flag(env, 'STARTER_DATA'),
    graphhopperUrl: url(env, 'GRAPHHOPPER_URL', ['http:', 'https:']),
    // One core stays with the event loop: 1 thread on 2 cores, at most 4 by default.
    transitWorkers: int(env, 'TRANSIT_WORKERS', Math.min(4, Math.max(1, availableParallelism() - 1)), 0, 64),
    hexcodeWorkers: int(env, 'HEXCODE_WORKERS', Math.min(2, Math.max(1, availableParallelism() - 1)), 0, 64),
    weather: {
      capFeeds: (optional(env, 'WEATHER_CAP_FEEDS') ?? '')
        .split(',')
        .map((feed) => feed.trim())
        .filter(Boolean)
        .map((feed, index) => url({ [`WEATHER_CAP_FEEDS[${index}]`]: feed }, `WEATHER_CAP_FEEDS[${index}]`, ['http:', 'https:'])!),
      capPollMinutes: int(env, 'WEATHER_CAP_POLL_MINUTES', 5, 1, 1440),
      forecastUrl: url(env, 'PRECIPITATION_FORECAST_URL', ['http:', 'https:']),
    },
    googleJwksUrl: url(env, 'GOOGLE_JWKS_URL', ['https:', 'http:']) ?? 'https://www.googleapis.com/oauth2/v3/certs',
    googleClientIds: googleClientIds ? googleClientIds.split(',').map((id) => id.trim()).filter(Boolean) : [],
    personalTokenTtlDays: int(env, 'PERSONAL_TOKEN_TTL_DAYS', 30, 1, 365),
    // OWASP's floor for bcrypt is 10; tests set 4, the algorithm's minimum.
    bcryptCost: int(env, 'BCRYPT_COST', 12, 4, 31),
    publicBaseUrl: baseUrl(env, 'PUBLIC_BASE_URL') ?? `http://localhost:${int(env, 'PORT', 8080, 0, 65535)}`,
    language: {
      khayaApiUrl: providerUrl(env, 'KHAYA_API_URL', nodeEnv) ?? 'https://translation-api.ghananlp.org',
      khayaApiKey: optional(env, 'KHAYA_API_KEY'),
      providerTimeoutMs: int(env, 'KHAYA_TIMEOUT_MS', 15_000, 100, 120_000),
      audioMaxBytes: int(env, 'LANGUAGE_AUDIO_MAX_BYTES', 4 * 1024 * 1024, 1024, 25 * 1024 * 1024),
    },
  };
}

/**
 * The base URL of an outbound provider, operator-set but still checked
 * (docs/adr/0021): https (http only outside production, where a subscription
 * key would cross the network in the clear), no credentials, query or fragment
 * to be glued onto paths. Answers it without a trailing slash.
 */
function providerUrl(env: Env, name: string, nodeEnv: Config['nodeEnv']): string | undefined {
  const raw = url(env, name, nodeEnv === 'production' ? ['https:'] : ['https:', 'http:']);
  if (raw === undefined) return undefined;
  const parsed = new URL(raw);
  if (parsed.username || parsed.password) throw new ConfigError(`${name} must not carry credentials: the key goes in KHAYA_API_KEY`);
  if (parsed.search || parsed.hash) throw new ConfigError(`${name} must not have a query or a fragment`);
  return raw.replace(/\/+$/, '');
}

function optional(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function flag(env: Env, name: string): boolean {
  const value = optional(env, name)?.toLowerCase();
  if (value === undefined || value === 'false' || value === '0') return false;
  if (value === 'true' || value === '1') return true;
  throw new ConfigError(`${name} must be true or false, got "${value}"`);
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = optional(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return value;
}

/** A comma-separated list of millisecond delays (0 to 7 days each, at most 30 entries); empty means no retries. */
function delays(env: Env, name: string, fallback: readonly number[]): number[] {
  const raw = env[name];
  if (raw === undefined) return [...fallback];
  if (raw.trim() === '') return [];
  const values = raw.split(',').map((part) => Number(part.trim()));
  const week = 7 * 24 * 60 * 60_000;
  if (values.length > 30 || values.some((value) => !Number.isInteger(value) || value < 0 || value > week)) {
    throw new ConfigError(`${name} must be a comma-separated list of at most 30 delays in milliseconds (0 to ${week}), got "${raw}"`);
  }
  return values;
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = optional(env, name);
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = optional(env, name);
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a URL`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must use ${protocols.join(' or ')}`);
  }
  return raw;
}

/** An http(s) origin, optionally with a path, without query or fragment; the trailing slash is dropped. */
function baseUrl(env: Env, name: string): string | undefined {
  const raw = url(env, name, ['https:', 'http:']);
  if (raw === undefined) return undefined;
  const parsed = new URL(raw);
  if (parsed.search || parsed.hash || parsed.username || parsed.password) throw new ConfigError(`${name} must be a plain http(s) URL without credentials, query or fragment`);
  return raw.replace(/\/+$/, '');
}

export const CONFIG = Symbol('Config');
