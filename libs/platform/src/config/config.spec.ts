import { availableParallelism } from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      nodeEnv: 'production',
      dataDir: path.resolve('./data'),
      authDisabled: false,
      trustProxy: false,
      webhookAllowPrivateUrls: false,
      bodyLimitBytes: 1024 * 1024,
    });
    expect(config.eventStoreUrl).toBeUndefined();
    expect(config.kafkaBrokers).toBeUndefined();
  });

  it('takes PUBLIC_BASE_URL (the issuer of signed artefacts) without its trailing slash; defaults to localhost on PORT', () => {
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://api.example.com/' }).publicBaseUrl).toBe('https://api.example.com');
    expect(loadConfig({ PORT: '9090' }).publicBaseUrl).toBe('http://localhost:9090');
    expect(() => loadConfig({ PUBLIC_BASE_URL: 'https://api.example.com/?x=1' })).toThrow(/PUBLIC_BASE_URL/);
    expect(() => loadConfig({ PUBLIC_BASE_URL: 'ftp://api.example.com' })).toThrow(/PUBLIC_BASE_URL/);
  });

  it('refuses AUTH_DISABLED outside development', () => {
    expect(() => loadConfig({ AUTH_DISABLED: 'true' })).toThrow(ConfigError);
    expect(() => loadConfig({ AUTH_DISABLED: 'true', NODE_ENV: 'test' })).toThrow(/development/);
    expect(loadConfig({ AUTH_DISABLED: 'true', NODE_ENV: 'development' }).authDisabled).toBe(true);
  });

  it('names the variable of a bad value', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ NODE_ENV: 'staging' })).toThrow(/NODE_ENV/);
    expect(() => loadConfig({ TRUST_PROXY: 'yes' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ REDIS_URL: 'http://localhost' })).toThrow(/REDIS_URL/);
  });

  it('splits broker lists and allows private webhook URLs outside production', () => {
    const config = loadConfig({ KAFKA_BROKERS: 'a:9092, b:9092,', NODE_ENV: 'test' });
    expect(config.kafkaBrokers).toEqual(['a:9092', 'b:9092']);
    expect(config.webhookAllowPrivateUrls).toBe(true);
  });

  it('lets an explicit WEBHOOK_ALLOW_PRIVATE_URLS win over the environment default', () => {
    expect(loadConfig({ NODE_ENV: 'test', WEBHOOK_ALLOW_PRIVATE_URLS: 'false' }).webhookAllowPrivateUrls).toBe(false);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }).webhookAllowPrivateUrls).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development' }).webhookAllowPrivateUrls).toBe(true);
  });

  it('reads the webhook delivery settings: time-out, retry schedule (its length is the cap), concurrency', () => {
    const defaults = loadConfig({});
    expect(defaults.webhookTimeoutMs).toBe(10_000);
    expect(defaults.webhookRetryDelaysMs[0]).toBe(0);
    expect(defaults.webhookRetryDelaysMs).toHaveLength(11);
    expect(defaults.webhookConcurrency).toBe(16);
    const set = loadConfig({ WEBHOOK_RETRY_DELAYS_MS: '0, 50,100', WEBHOOK_TIMEOUT_MS: '500' });
    expect(set.webhookRetryDelaysMs).toEqual([0, 50, 100]);
    expect(set.webhookTimeoutMs).toBe(500);
    expect(loadConfig({ WEBHOOK_RETRY_DELAYS_MS: '' }).webhookRetryDelaysMs).toEqual([]);
    expect(() => loadConfig({ WEBHOOK_RETRY_DELAYS_MS: '0,-1' })).toThrow(/WEBHOOK_RETRY_DELAYS_MS/);
    expect(() => loadConfig({ WEBHOOK_RETRY_DELAYS_MS: '0,soon' })).toThrow(/WEBHOOK_RETRY_DELAYS_MS/);
    expect(() => loadConfig({ WEBHOOK_TIMEOUT_MS: '10' })).toThrow(/WEBHOOK_TIMEOUT_MS/);
  });

  it('reads the accounts settings with their documented defaults and bounds', () => {
    const defaults = loadConfig({});
    expect(defaults).toMatchObject({
      mailFrom: 'no-reply@location-api.local',
      throttles: { routing: 60, navigation: 120, language: 20, public: 600 },
      devIpDailyLimit: 1000,
      personalTokenTtlDays: 30,
      bcryptCost: 12,
      googleClientIds: [],
    });
    expect(loadConfig({ THROTTLE_PUBLIC_PER_MINUTE: '1000000' }).throttles.public).toBe(1_000_000);
    const set = loadConfig({ THROTTLE_LANGUAGE_PER_MINUTE: '5', GOOGLE_CLIENT_IDS: 'a.apps, b.apps', PERSONAL_TOKEN_TTL_DAYS: '7' });
    expect(set.throttles.language).toBe(5);
    expect(set.googleClientIds).toEqual(['a.apps', 'b.apps']);
    expect(set.personalTokenTtlDays).toBe(7);
    expect(() => loadConfig({ THROTTLE_ROUTING_PER_MINUTE: '0' })).toThrow(/THROTTLE_ROUTING_PER_MINUTE/);
    expect(() => loadConfig({ BCRYPT_COST: '99' })).toThrow(/BCRYPT_COST/);
  });

  it('imports the starter data unless STARTER_DATA=false', () => {
    expect(loadConfig({}).starterData).toBe(true);
    expect(loadConfig({ STARTER_DATA: 'true' }).starterData).toBe(true);
    expect(loadConfig({ STARTER_DATA: 'false' }).starterData).toBe(false);
    expect(loadConfig({ STARTER_DATA: '0' }).starterData).toBe(false);
    expect(() => loadConfig({ STARTER_DATA: 'no' })).toThrow(/STARTER_DATA/);
  });

  it('reads TRANSIT_WORKERS (0: plan on the event loop), by default one thread fewer than the cores, 1 to 4', () => {
    expect(loadConfig({}).transitWorkers).toBe(Math.min(4, Math.max(1, availableParallelism() - 1)));
    expect(loadConfig({ TRANSIT_WORKERS: '0' }).transitWorkers).toBe(0);
    expect(loadConfig({ TRANSIT_WORKERS: '3' }).transitWorkers).toBe(3);
    expect(() => loadConfig({ TRANSIT_WORKERS: '65' })).toThrow(/TRANSIT_WORKERS/);
    expect(() => loadConfig({ TRANSIT_WORKERS: 'two' })).toThrow(/TRANSIT_WORKERS/);
  });

  it('reads HEXCODE_WORKERS (0: bulk hex coding on the event loop), by default one thread fewer than the cores, 1 to 2', () => {
    expect(loadConfig({}).hexcodeWorkers).toBe(Math.min(2, Math.max(1, availableParallelism() - 1)));
    expect(loadConfig({ HEXCODE_WORKERS: '0' }).hexcodeWorkers).toBe(0);
    expect(loadConfig({ HEXCODE_WORKERS: '4' }).hexcodeWorkers).toBe(4);
    expect(() => loadConfig({ HEXCODE_WORKERS: '65' })).toThrow(/HEXCODE_WORKERS/);
  });

  it('reads the request and header time-outs, the headers one no longer than the request one', () => {
    expect(loadConfig({})).toMatchObject({ requestTimeoutMs: 30_000, headersTimeoutMs: 10_000 });
    expect(loadConfig({ REQUEST_TIMEOUT_MS: '4000' })).toMatchObject({ requestTimeoutMs: 4000, headersTimeoutMs: 4000 });
    expect(loadConfig({ REQUEST_TIMEOUT_MS: '60000', HEADERS_TIMEOUT_MS: '5000' })).toMatchObject({ requestTimeoutMs: 60_000, headersTimeoutMs: 5000 });
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '0' })).toThrow(/REQUEST_TIMEOUT_MS/);
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: 'soon' })).toThrow(/REQUEST_TIMEOUT_MS/);
    expect(() => loadConfig({ HEADERS_TIMEOUT_MS: '50' })).toThrow(/HEADERS_TIMEOUT_MS/);
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '5000', HEADERS_TIMEOUT_MS: '6000' })).toThrow(/HEADERS_TIMEOUT_MS/);
  });

  it('reads the language provider settings: Khaya URL (https in production, no credentials, query or fragment), key, time-out, audio cap', () => {
    expect(loadConfig({}).language).toEqual({ khayaApiUrl: 'https://translation-api.ghananlp.org', khayaApiKey: undefined, providerTimeoutMs: 15_000, audioMaxBytes: 4 * 1024 * 1024 });
    expect(loadConfig({ KHAYA_API_URL: 'https://khaya.example/base/', KHAYA_API_KEY: 'k', KHAYA_TIMEOUT_MS: '500', LANGUAGE_AUDIO_MAX_BYTES: '2048' }).language).toEqual({
      khayaApiUrl: 'https://khaya.example/base',
      khayaApiKey: 'k',
      providerTimeoutMs: 500,
      audioMaxBytes: 2048,
    });
    expect(loadConfig({ NODE_ENV: 'test', KHAYA_API_URL: 'http://127.0.0.1:9000' }).language.khayaApiUrl).toBe('http://127.0.0.1:9000');
    expect(() => loadConfig({ KHAYA_API_URL: 'http://khaya.example' })).toThrow(/KHAYA_API_URL must use https:/);
    for (const bad of ['ftp://khaya.example', 'file:///etc/passwd', 'https://user:pass@khaya.example', 'https://khaya.example/?key=1', 'https://khaya.example/#x', 'not a url']) {
      expect(() => loadConfig({ KHAYA_API_URL: bad })).toThrow(/KHAYA_API_URL/);
    }
    expect(() => loadConfig({ LANGUAGE_AUDIO_MAX_BYTES: String(26 * 1024 * 1024) })).toThrow(/LANGUAGE_AUDIO_MAX_BYTES/);
    expect(() => loadConfig({ KHAYA_TIMEOUT_MS: '10' })).toThrow(/KHAYA_TIMEOUT_MS/);
  });

  it('reads the archive job settings (docs/adr/0024); its clock moves and its kill hook works only outside production and in test', () => {
    expect(loadConfig({})).toMatchObject({ auditRetentionIntervalS: 86_400, auditRetentionClockOffsetS: 0, auditArchiveTestKillAt: undefined });
    expect(loadConfig({ NODE_ENV: 'test', AUDIT_RETENTION_INTERVAL_S: '1', AUDIT_RETENTION_CLOCK_OFFSET_S: '3456000', AUDIT_ARCHIVE_TEST_KILL_AT: 'manifest:2' })).toMatchObject({
      auditRetentionIntervalS: 1,
      auditRetentionClockOffsetS: 3_456_000,
      auditArchiveTestKillAt: 'manifest:2',
    });
    expect(() => loadConfig({ AUDIT_RETENTION_CLOCK_OFFSET_S: '60' })).toThrow(/AUDIT_RETENTION_CLOCK_OFFSET_S/);
    expect(() => loadConfig({ NODE_ENV: 'development', AUDIT_ARCHIVE_TEST_KILL_AT: 'signed' })).toThrow(/AUDIT_ARCHIVE_TEST_KILL_AT/);
    expect(() => loadConfig({ AUDIT_RETENTION_INTERVAL_S: '-1' })).toThrow(/AUDIT_RETENTION_INTERVAL_S/);
  });
});
