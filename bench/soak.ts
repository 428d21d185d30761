import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `npm run soak [-- MINUTES]` (default 10; not part of CI): starts `npm start`
 * on a fresh DATA_DIR, creates customers with consent, zones and geofences,
 * then sends ping batches at a steady pace and samples the service's anonymous
 * resident memory every 15 s. Memory is "flat" when, over the second half of
 * the run, the floor of the garbage-collection saw-tooth (each minute's lowest
 * sample) grows by less than 1 MB a minute (the first half is warm-up).
 * Exits 1 when it is not flat or a request fails.
 */

const minutes = Number(process.argv[2] ?? 10);
const root = fileURLToPath(new URL('../../', import.meta.url));
const dataDir = mkdtempSync(path.join(tmpdir(), 'soak-'));
const port = 18_000 + Math.floor(Math.random() * 1000);
const base = `http://127.0.0.1:${port}`;
const customers = 500;
const log = (line: string) => process.stdout.write(`[soak ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

// Without the starter import unless asked (STARTER_DATA=true): the memory figures stay comparable with earlier runs.
const child = spawn(process.execPath, [path.join(root, 'scripts/start.mjs'), 'all-in-one'], {
  cwd: root,
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'production', STARTER_DATA: process.env.STARTER_DATA ?? 'false' },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const stop = () => child.kill('SIGTERM');
process.on('SIGINT', () => {
  stop();
  process.exit(130);
});

async function call(method: string, url: string, key?: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: { ...(key ? { 'x-api-key': key } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const parsed = (await response.json()) as { success: boolean; data: Record<string, unknown>; error?: unknown };
  if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${JSON.stringify(parsed.error)}`);
  return parsed.data;
}

/**
 * Anonymous resident memory (heap, native allocations) of the service, which
 * runs in the spawned node process itself (start.mjs imports the entry point).
 * File-backed pages are left out: LMDB maps its files, so their pages count in
 * VmRSS as the data grows, yet the kernel drops them whenever it needs to.
 */
function memoryMb(pid: number): { anon: number; file: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { anon: kb('RssAnon') / 1024, file: kb('RssFile') / 1024 };
}

async function waitHealthy(): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${base}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the service did not become healthy within 120 s');
}

async function main(): Promise<void> {
  log(`starting npm start on :${port}, DATA_DIR=${dataDir}, for ${minutes} min`);
  await waitHealthy();
  // Signup keys are on the free tier (100 requests a day): the operator raises this account's tier.
  const adminKey = process.env.ADMIN_API_KEY;
  if (!adminKey) throw new Error('set ADMIN_API_KEY (the soak raises its account to the enterprise tier through the admin API)');
  let tenants = 0;
  const tenant = async (): Promise<string> => {
    const signup = await call('POST', '/v2/self/signup', undefined, { name: 'Soak', email: `soak-${Date.now()}-${tenants++}@example.com` });
    const key = String(signup.key);
    const me = await call('GET', '/v2/me', key);
    await call('PUT', `/v2/admin/accounts/${String(me.account_id)}/tier`, adminKey, { tier: 'enterprise' });
    for (let i = 0; i < customers; i += 1) {
      const customer = `soak-${i}`;
      const home = { lat: 5.45 + Math.random() * 0.3, lng: -0.45 + Math.random() * 0.3 };
      await call('POST', '/v2/consent/grant', key, { customer_id: customer });
      await call('PUT', `/v2/monitoring/zones/${customer}`, key, { ...home, tolerance_hops: 2 });
      await call('POST', '/v2/geofence/create', key, { fence_type: 'circle', center: home, radius_m: 300, customer_id: customer, loan_id: `loan-${i}` });
    }
    return key;
  };
  let key = await tenant();
  log(`${customers} customers with consent, zone and fence`);

  const samples: Array<{ at: number; mb: number }> = [];
  const started = Date.now();
  const end = started + minutes * 60_000;
  let sent = 0;
  let nextSample = started;
  let clock = Date.now() - 7 * 24 * 3_600_000;
  while (Date.now() < end) {
    const customer = Math.floor(Math.random() * customers);
    const pings = Array.from({ length: 50 }, () => ({
      customer_id: `soak-${customer}`,
      lat: 5.45 + Math.random() * 0.3,
      lng: -0.45 + Math.random() * 0.3,
      recorded_at: new Date((clock += 1000)).toISOString(),
    }));
    try {
      await Promise.all([0, 1, 2, 3].map(() => call('POST', '/v2/monitoring/pings', key, { pings: pings.map((ping) => ({ ...ping, recorded_at: new Date((clock += 1000)).toISOString() })) })));
    } catch (error) {
      // A ping batch counts its pings against the quota (ADR 0042): an enterprise day is 100,000 pings, then another tenant carries on.
      if (!String(error).includes('answered 429')) throw error;
      key = await tenant();
      log(`quota spent after ${sent} pings: tenant ${tenants}`);
      continue;
    }
    sent += 200;
    if (Date.now() >= nextSample) {
      const { anon, file } = memoryMb(child.pid!);
      samples.push({ at: (Date.now() - started) / 60_000, mb: anon });
      log(`${((Date.now() - started) / 60_000).toFixed(1)} min: ${sent} pings sent, anonymous RSS ${anon.toFixed(1)} MB (file-backed ${file.toFixed(1)} MB)`);
      nextSample += 15_000;
    }
  }
  // Garbage collection makes a saw-tooth; what must not climb is its floor: the lowest sample of each minute.
  const lowest = new Map<number, { at: number; mb: number }>();
  for (const sample of samples) {
    const minute = Math.floor(sample.at);
    const low = lowest.get(minute);
    if (!low || sample.mb < low.mb) lowest.set(minute, sample);
  }
  const floors = [...lowest.values()];
  const second = floors.filter((sample) => sample.at >= minutes / 2);
  const slope = slopeOf(second);
  const flat = slope < 1;
  log(`anonymous RSS from ${samples[0]?.mb.toFixed(1)} to ${samples.at(-1)?.mb.toFixed(1)} MB; floor of the second half grows ${slope.toFixed(2)} MB/min: ${flat ? 'flat' : 'NOT flat'}`);
  stop();
  process.exit(flat ? 0 : 1);
}

/** Least-squares slope of MB over minutes. */
function slopeOf(points: Array<{ at: number; mb: number }>): number {
  if (points.length < 2) return 0;
  const n = points.length;
  const mx = points.reduce((sum, p) => sum + p.at, 0) / n;
  const my = points.reduce((sum, p) => sum + p.mb, 0) / n;
  const num = points.reduce((sum, p) => sum + (p.at - mx) * (p.mb - my), 0);
  const den = points.reduce((sum, p) => sum + (p.at - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

main().catch((error: unknown) => {
  log(`failed: ${error instanceof Error ? error.message : String(error)}`);
  stop();
  process.exit(1);
});
