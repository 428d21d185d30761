import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ADMIN_KEY, bootService, eventually } from './support/boot.js';
import { data, signUp } from './support/http.js';

/**
 * Daily quotas are counted over a rolling 24 h (interface.md, "Limits" 1), so in
 * embedded mode a restart must not hand a key a fresh quota: the counters are
 * journaled under DATA_DIR/rate-limits (docs/adr/0007, "Embedded counters").
 */

interface Usage {
  used: number;
  remaining: number;
  daily_limit: number;
}

/** Reset may not lie more than 24 h ahead of the moment the answer left (plus the rounding up to a whole second). */
function expectResetWithinADay(response: Response): void {
  const reset = Number(response.headers.get('x-ratelimit-reset'));
  expect(reset).toBeGreaterThan(Date.now() / 1000);
  expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 86_400);
}

describe('daily quota across a restart (embedded counters)', () => {
  it('a key at 100 of 100 stays refused after a clean restart, and its usage is kept', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'location-api-quota-'));
    let service = await bootService({ dataDir });
    let key: string;
    try {
      key = await signUp(service, 'Abena');
      for (let i = 0; i < 99; i++) expect((await service.request('GET', '/v2/usage', { key })).status).toBe(200);
      const last = await service.request('GET', '/v2/usage', { key });
      expect(await data<Usage>(last)).toMatchObject({ used: 100, remaining: 0, daily_limit: 100 });
      expectResetWithinADay(last);
    } finally {
      await service.close();
    }

    service = await bootService({ dataDir });
    try {
      const refused = await service.request('GET', '/v2/usage', { key });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
      expectResetWithinADay(refused);
    } finally {
      await service.close();
    }
  });
});

const root = path.resolve(import.meta.dirname, '..');

function start(dataDir: string, port: number): ChildProcess {
  return spawn(process.execPath, ['scripts/start.mjs', 'all-in-one'], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'test', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, ADMIN_API_KEY: ADMIN_KEY, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function waitHealthy(port: number): Promise<void> {
  await eventually(async () => {
    try {
      return (await fetch(`http://127.0.0.1:${port}/health`)).status === 200 ? true : undefined;
    } catch {
      return undefined;
    }
  }, 30_000);
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

it('keeps a key’s usage through SIGKILL, losing nothing counted more than the flush bound before the crash', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'location-api-quota-kill-'));
  const port = 20000 + Math.floor(Math.random() * 1000);
  const service = { request: (method: string, url: string, init: { key?: string; body?: unknown } = {}) => request(port, method, url, init) };
  let child = start(dataDir, port);
  try {
    await waitHealthy(port);
    const key = await signUp(service, 'Kojo');
    for (let i = 0; i < 30; i++) expect((await service.request('GET', '/v2/usage', { key })).status).toBe(200);
    // The journal commits at most 50 ms after a count (plus the commit itself); wait well past that, then crash.
    await new Promise((resolve) => setTimeout(resolve, 300));
    child.kill('SIGKILL');
    await exited(child);

    child = start(dataDir, port);
    await waitHealthy(port);
    // 30 counted before the crash, and this request itself.
    expect(await data<Usage>(await service.request('GET', '/v2/usage', { key }))).toMatchObject({ used: 31, remaining: 69 });
  } finally {
    child.kill('SIGTERM');
    await exited(child);
  }
}, 90_000);

function request(port: number, method: string, url: string, init: { key?: string; body?: unknown }): Promise<Response> {
  const headers: Record<string, string> = {};
  if (init.key) headers['x-api-key'] = init.key;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  return fetch(`http://127.0.0.1:${port}${url}`, { method, headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
}
