import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describeWith } from '../../libs/platform/src/testing/server-suites.js';
import { ADMIN_KEY, bootService, eventually } from '../support/boot.js';

const root = path.resolve(import.meta.dirname, '../..');
const redisServer = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).stdout.trim();
const redisUrl = process.env.REDIS_URL;

// Both suites need Redis: the split topology shares its job queue through it, and the
// health test stops a private redis-server. `.ci/run` installs and starts Redis.
const describeWithRedis = describeWith('REDIS_URL', 'the api + worker topology test (test/topology/split.e2e-spec)');
const describeWithRedisServer = redisServer ? describe : describe.skip;
if (!redisServer) process.stderr.write('no redis-server binary: skipping the backend-outage health test (test/topology/split.e2e-spec)\n');

/** Resolves with the exit code, also for a child that has already exited. */
function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

describeWithRedis('api and worker as separate processes (the production split)', () => {
  it('serves from the api while the worker builds the read models from the shared log', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'location-api-split-'));
    const port = 20000 + Math.floor(Math.random() * 1000);
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test', DATA_DIR: dataDir, ADMIN_API_KEY: ADMIN_KEY, LOG_LEVEL: 'warn', REDIS_URL: redisUrl, PORT: String(port), HOST: '127.0.0.1' };
    delete env.KAFKA_BROKERS;
    const api = spawn(process.execPath, ['scripts/start.mjs', 'api'], { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
    const worker = spawn(process.execPath, ['scripts/start.mjs', 'worker'], { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
    const errors: string[] = [];
    api.stderr?.on('data', (chunk) => errors.push(`api: ${chunk}`));
    worker.stderr?.on('data', (chunk) => errors.push(`worker: ${chunk}`));
    try {
      await eventually(async () => {
        expect(errors).toEqual([]);
        try {
          return (await fetch(`http://127.0.0.1:${port}/health`)).status === 200 ? true : undefined;
        } catch {
          return undefined;
        }
      }, 120_000);
      await fetch(`http://127.0.0.1:${port}/v2/admin/audit`, { headers: { 'x-api-key': ADMIN_KEY, 'x-request-id': 'split-1' } });
      const ids = await eventually(async () => {
        const response = await fetch(`http://127.0.0.1:${port}/v2/admin/audit?account_id=platform`, { headers: { 'x-api-key': ADMIN_KEY } });
        const body = (await response.json()) as { data: { items: Array<{ request_id: string }> } };
        const found = body.data.items.map((item) => item.request_id);
        return found.includes('split-1') ? found : undefined;
      }, 15_000);
      expect(ids).toContain('split-1');
    } finally {
      api.kill('SIGTERM');
      worker.kill('SIGTERM');
      expect(await exited(api)).toBe(0);
      expect(await exited(worker)).toBe(0);
    }
  }, 180_000);
});

describeWithRedis('a process stopped while it starts', () => {
  it('holds a SIGTERM that arrives during the start and then stops cleanly (exit 0, not killed by the signal)', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'location-api-early-stop-'));
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test', DATA_DIR: dataDir, ADMIN_API_KEY: ADMIN_KEY, LOG_LEVEL: 'info', REDIS_URL: redisUrl };
    delete env.KAFKA_BROKERS;
    const worker = spawn(process.execPath, ['scripts/start.mjs', 'worker'], { cwd: root, env, stdio: ['ignore', 'pipe', 'ignore'] });
    let output = '';
    // Nest's first line comes after the hold is in place and before the modules start.
    await new Promise<void>((resolve, reject) => {
      worker.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Starting Nest application')) resolve();
      });
      worker.once('exit', () => reject(new Error(`the worker exited before it started: ${output.slice(-500)}`)));
    });
    worker.kill('SIGTERM');
    expect(await exited(worker)).toBe(0);
    expect(worker.signalCode).toBeNull();
    expect(output).toContain('"msg":"stopped"');
  }, 120_000);
});

describeWithRedisServer('/health when a configured backend goes away', () => {
  it('answers 503 naming the backend while Redis is down, and 200 again once it is back', async () => {
    const port = 21000 + Math.floor(Math.random() * 1000);
    const startRedis = () => spawn(redisServer, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    let redis = startRedis();
    const service = await eventually(async () => {
      try {
        return await bootService({ env: { REDIS_URL: `redis://127.0.0.1:${port}` } });
      } catch {
        return undefined;
      }
    }, 10_000);
    try {
      expect((await service.request('GET', '/health')).status).toBe(200);
      redis.kill('SIGKILL');
      await exited(redis);
      // Reported once the last round of pings is older than their reuse window (HEALTH_PING_REUSE_MS, 0.5 s).
      const down = await eventually(async () => {
        const response = await service.request('GET', '/health');
        return response.status === 503 ? response : undefined;
      }, 5_000);
      expect(await down.json()).toEqual({ status: 'unavailable', failing: ['queue', 'rate_limits'] });

      redis = startRedis();
      await eventually(async () => ((await service.request('GET', '/health')).status === 200 ? true : undefined), 20_000);
    } finally {
      await service.close();
      redis.kill('SIGKILL');
    }
  }, 60_000);
});
