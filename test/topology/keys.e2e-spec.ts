import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ADMIN_KEY, eventually } from '../support/boot.js';

const root = path.resolve(import.meta.dirname, '../..');

/** The api process alone on embedded adapters: the split role is production mode by itself (docs/adr/0033). */
function startApi(dataDir: string, key: string | undefined, port: number) {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test', DATA_DIR: dataDir, ADMIN_API_KEY: ADMIN_KEY, LOG_LEVEL: 'warn', PORT: String(port), HOST: '127.0.0.1' };
  for (const name of ['DATA_ENCRYPTION_KEY', 'REDIS_URL', 'KAFKA_BROKERS', 'MONGODB_URL', 'EVENTSTORE_URL']) delete env[name];
  if (key) env.DATA_ENCRYPTION_KEY = key;
  const child = spawn(process.execPath, ['scripts/start.mjs', 'api'], { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exit, stderr: () => stderr };
}

describe('DATA_ENCRYPTION_KEY across processes', () => {
  it('refuses a split process without it, and a later process whose key differs from the first one’s', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'location-api-keys-'));
    const port = 22000 + Math.floor(Math.random() * 1000);

    const keyless = startApi(dataDir, undefined, port);
    expect(await keyless.exit).toBe(78);
    expect(keyless.stderr()).toContain('DATA_ENCRYPTION_KEY is required');

    const first = startApi(dataDir, randomBytes(32).toString('base64'), port);
    try {
      await eventually(async () => {
        try {
          return (await fetch(`http://127.0.0.1:${port}/health`)).status === 200 ? true : undefined;
        } catch {
          return undefined;
        }
      }, 120_000);
    } finally {
      first.child.kill('SIGTERM');
      expect(await first.exit).toBe(0);
    }

    const second = startApi(dataDir, randomBytes(32).toString('base64'), port);
    expect(await second.exit).toBe(78);
    expect(second.stderr()).toMatch(/DATA_ENCRYPTION_KEY differs from the key this deployment's first process recorded/);
  }, 180_000);
});
