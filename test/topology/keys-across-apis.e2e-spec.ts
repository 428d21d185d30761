import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { describeWith } from '../../libs/platform/src/testing/server-suites.js';
import { ADMIN_KEY, eventually } from '../support/boot.js';
import { describeFirstCalls, firstCallsOnTheOtherApi, type Api } from './first-calls.js';

const root = path.resolve(import.meta.dirname, '../..');
const ENTRY = 'dist/apps/api/src/main.js';
/** A Redis database of its own, emptied first and last: BullMQ's keys have no per-run prefix. */
const REDIS_DB = 12;
// Processes of the split share their job queue through Redis (the embedded queue is one process's).
const describeWithRedis = describeWith('REDIS_URL', 'the two-api key test (test/topology/keys-across-apis.e2e-spec)');

function redisDbUrl(): string {
  const url = new URL(process.env.REDIS_URL!);
  url.pathname = `/${REDIS_DB}`;
  return url.toString();
}

async function emptyRedisDb(): Promise<void> {
  const redis = new Redis(redisDbUrl());
  await redis.flushdb();
  await redis.quit();
}

/**
 * Two api processes of the split on one DATA_DIR and Redis (their job queue):
 * every other adapter embedded, the event store shared through LMDB. Each learns what the
 * other writes by polling the log (200 ms), so without the store reads of
 * docs/adr/0057 a key is unknown on the other process for about that long.
 * Runs the compiled entry point: `node scripts/start.mjs build` first.
 */
describeWithRedis('keys across two api processes on the embedded event store (docs/adr/0057)', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'location-api-keys-across-'));
  const basePort = 24000 + Math.floor(Math.random() * 900) * 2;
  const encryptionKey = randomBytes(32).toString('base64');
  const children: ChildProcess[] = [];
  const stderr: string[] = [];

  function start(name: string, port: number): Api {
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      DATA_ENCRYPTION_KEY: encryptionKey,
      ADMIN_API_KEY: ADMIN_KEY,
      LOG_LEVEL: 'warn',
      PORT: String(port),
      HOST: '127.0.0.1',
      STARTER_DATA: 'false',
      SIGNUP_LIMIT_PER_IP_PER_HOUR: '100000',
      TRANSIT_WORKERS: '0',
      REDIS_URL: redisDbUrl(),
    };
    const child = spawn(process.execPath, [ENTRY], { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr!.on('data', (chunk: Buffer) => stderr.push(`${name}: ${chunk.toString()}`));
    children.push(child);
    return { name, url: `http://127.0.0.1:${port}` };
  }

  async function ready(api: Api): Promise<void> {
    await eventually(async () => {
      const exited = children.find((child) => child.exitCode !== null);
      if (exited) throw new Error(`an api exited ${exited.exitCode}: ${stderr.join('').slice(-2000)}`);
      try {
        return (await fetch(`${api.url}/health/ready`)).status === 200 ? true : undefined;
      } catch {
        return undefined;
      }
    }, 150_000);
  }

  let apis: [Api, Api];

  beforeAll(async () => {
    await emptyRedisDb();
    // One after the other: the first records the data key's fingerprint, the second checks it.
    const first = start('api-1', basePort);
    await ready(first);
    const second = start('api-2', basePort + 1);
    await ready(second);
    apis = [first, second];
  }, 320_000);

  afterAll(async () => {
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      ),
    );
    await emptyRedisDb();
  }, 60_000);

  it('honours a signup, a rotation, a tier change and a revocation on the other api from its first call there', async () => {
    const calls = await firstCallsOnTheOtherApi(apis, 10, { adminKey: ADMIN_KEY, run: randomBytes(4).toString('hex') });
    process.stderr.write(`keys across apis (embedded): first call on the other api: ${describeFirstCalls(calls)}\n`);
    expect({ honoured: calls.honoured, misses: calls.misses }).toEqual({ honoured: calls.rounds, misses: [] });
    expect(calls.rounds).toEqual({ signup: 10, rotated: 10, oldKeyRefused: 10, tier: 10, revoked: 9 });
  }, 120_000);

  it('answers 401 on either api for a key neither issued', async () => {
    const key = randomBytes(32).toString('hex');
    for (const api of apis) {
      const response = await fetch(`${api.url}/v2/me`, { headers: { 'x-api-key': key } });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ success: false, error: { code: 'INVALID_API_KEY' } });
    }
  });
});
