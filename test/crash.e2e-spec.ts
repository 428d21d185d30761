import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { verifyChain, type ApiAccessRecorded } from '../libs/audit/src/index.js';
import { EmbeddedEventStore } from '../libs/platform/src/index.js';
import { ADMIN_KEY, eventually } from './support/boot.js';

/**
 * The real `npm start` entry in a child process: acknowledged writes survive
 * kill -9, and SIGTERM drains and exits 0 (decisions.md, "Running it").
 */
const root = path.resolve(import.meta.dirname, '..');


function start(dataDir: string, port: number): ChildProcess {
  return spawn(process.execPath, ['scripts/start.mjs', 'all-in-one'], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'test', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, ADMIN_API_KEY: ADMIN_KEY, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

async function waitHealthy(port: number): Promise<void> {
  await eventually(async () => {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/health`);
      return response.status === 200 ? true : undefined;
    } catch {
      return undefined;
    }
  }, 30_000);
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/** Fires audited requests in waves until stopped; answers the request ids acknowledged with 200. */
function hammer(port: number, prefix: string): { stop: () => Promise<string[]>; acknowledgedSoFar: () => number } {
  const acknowledged: string[] = [];
  let running = true;
  let sequence = 0;
  const worker = async () => {
    while (running) {
      const id = `${prefix}-${sequence++}`;
      try {
        const response = await fetch(`http://127.0.0.1:${port}/v2/admin/audit?limit=1`, { headers: { 'x-api-key': ADMIN_KEY, 'x-request-id': id } });
        if (response.status === 200) acknowledged.push(id);
      } catch {
        return; // the server went away
      }
    }
  };
  const workers = Array.from({ length: 16 }, worker);
  return {
    acknowledgedSoFar: () => acknowledged.length,
    stop: async () => {
      running = false;
      await Promise.all(workers);
      return acknowledged;
    },
  };
}

async function signUpAndRotate(port: number): Promise<{ current: string; replaced: string }> {
  const signup = await fetch(`http://127.0.0.1:${port}/v2/self/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Crash', email: `crash-${Date.now()}@example.com` }),
  });
  expect(signup.status).toBe(201);
  const replaced = ((await signup.json()) as { data: { key: string } }).data.key;
  const rotated = await fetch(`http://127.0.0.1:${port}/v2/me/rotate`, { method: 'POST', headers: { 'x-api-key': replaced } });
  expect(rotated.status).toBe(200);
  return { current: ((await rotated.json()) as { data: { key: string } }).data.key, replaced };
}

async function recordedIds(dataDir: string): Promise<{ ids: Set<string>; chainOk: boolean }> {
  const store = await EmbeddedEventStore.open(path.join(dataDir, 'events'));
  try {
    const events = await store.readStream('access_log-platform');
    const chain = verifyChain(events.map((event) => event.data as unknown as ApiAccessRecorded['data']));
    return { ids: new Set(events.map((event) => String(event.data.request_id))), chainOk: chain.ok };
  } finally {
    await store.close();
  }
}

it('loses no acknowledged write when killed with SIGKILL mid-traffic, and restarts with its state', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'location-api-crash-'));
  const port = 18000 + Math.floor(Math.random() * 1000);
  const child = start(dataDir, port);
  await waitHealthy(port);
  // A key signed up and rotated before the kill, and the traffic after it: the restart fills its in-memory views (the key
  // directory) from their own streams alone, past the access events between them (issue 47).
  const keys = await signUpAndRotate(port);
  const load = hammer(port, 'crash');
  // Kill mid-traffic once enough writes are acknowledged (a count, not a time: a loaded machine answers slower).
  while (load.acknowledgedSoFar() <= 50) await new Promise((resolve) => setTimeout(resolve, 50));
  await new Promise((resolve) => setTimeout(resolve, 200));
  child.kill('SIGKILL');
  await exited(child);
  const acknowledged = await load.stop();
  expect(acknowledged.length).toBeGreaterThan(50);

  // An answered request's entry is durable in the access journal; the restart puts into the event store what the
  // journal holds and the store lacks before it serves anything (ADR 0004, "The journal").
  const again = start(dataDir, port);
  try {
    await waitHealthy(port);
    const { ids, chainOk } = await recordedIds(dataDir);
    expect(acknowledged.filter((id) => !ids.has(id))).toEqual([]);
    expect(chainOk).toBe(true);
    const response = await fetch(`http://127.0.0.1:${port}/v2/admin/audit?account_id=platform&limit=500`, { headers: { 'x-api-key': ADMIN_KEY } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: { items: unknown[] } };
    expect(body.data.items.length).toBeGreaterThan(0);
    // Ready means the views are complete: the rotated key answers at once, the key it replaced is refused.
    expect((await fetch(`http://127.0.0.1:${port}/v2/me`, { headers: { 'x-api-key': keys.current } })).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/v2/me`, { headers: { 'x-api-key': keys.replaced } })).status).toBe(401);
  } finally {
    again.kill('SIGTERM');
    await exited(again);
  }
}, 90_000);

it('drains in-flight requests and exits 0 on SIGTERM', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'location-api-term-'));
  const port = 19000 + Math.floor(Math.random() * 1000);
  const child = start(dataDir, port);
  await waitHealthy(port);
  const load = hammer(port, 'term');
  await new Promise((resolve) => setTimeout(resolve, 1000));
  child.kill('SIGTERM');
  const { code } = await exited(child);
  const acknowledged = await load.stop();
  expect(code).toBe(0);
  const { ids, chainOk } = await recordedIds(dataDir);
  expect(acknowledged.filter((id) => !ids.has(id))).toEqual([]);
  expect(chainOk).toBe(true);
}, 90_000);
