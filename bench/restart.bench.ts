import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EmbeddedEventStore } from '../libs/platform/src/index.js';
import { toRow, type Check, type Sample, type Section } from './report.js';

/**
 * `npm run bench -- restart` (issue 47, item 6): does the time from spawning
 * the service to `GET /health/ready` 200 grow with the data it holds? Two
 * DATA_DIRs are filled through the public API with the same mix of writes,
 * the second with `factor` times as many events: accounts signed up and made
 * enterprise, consents granted, zones set, ping batches, arrival telemetry
 * and look-ups (each audited request adds its access event). The filling
 * process is killed with SIGKILL, as the probe did. Then the service is
 * restarted on each directory in turn, `rounds` times, each time timed from
 * the spawn of the compiled all-in-one entry (what `npm start` runs once
 * built) to the first 200 from /health/ready, and killed with SIGKILL once
 * ready. The p50 with `factor` times the events is compared with the p50 of
 * the smaller directory, in the same run. The starter data stays off: its
 * datasets load in a constant time that would only make the ratio look better.
 *
 * Goal: at most 1.5× with ten times the events.
 */

export interface RestartBenchOptions {
  /** Events in the baseline DATA_DIR (at least). */
  events: number;
  /** The other DATA_DIR holds this many times as many. */
  factor: number;
  /** Restarts measured on each DATA_DIR, interleaved. */
  rounds: number;
  progress: (line: string) => void;
}

const root = fileURLToPath(new URL('../../', import.meta.url));
const ENTRY = path.join(root, 'dist/apps/all-in-one/src/main.js');
const GOAL_RATIO = 1.5;
/** Concurrent clients filling a DATA_DIR. */
const FILL_CLIENTS = 4;
const CUSTOMERS_PER_ACCOUNT = 5;
const PINGS_PER_CUSTOMER = 50;
const ARRIVALS_PER_ACCOUNT = 10;
const LOOKUPS_PER_ACCOUNT = 10;
const READY_TIMEOUT_MS = 180_000;

export async function runRestartBench(options: RestartBenchOptions): Promise<Section> {
  const work = mkdtempSync(path.join(tmpdir(), 'bench-restart-'));
  const adminKey = randomBytes(24).toString('base64url');
  const small = path.join(work, 'small');
  const large = path.join(work, 'large');
  try {
    const target = { small: options.events, large: options.events * options.factor };
    const held = { small: 0n, large: 0n };
    const filler = new Filler(adminKey);
    options.progress(`restart: filling a DATA_DIR with ${target.small} events through the API`);
    held.small = await filler.fill(small, target.small, options.progress);
    // The larger directory continues from a copy of the smaller one: the same mix, ten times as much of it.
    cpSync(small, large, { recursive: true });
    options.progress(`restart: filling a copy to ${target.large} events`);
    held.large = await filler.fill(large, target.large, options.progress);

    const samples: Record<'small' | 'large', Sample[]> = { small: [], large: [] };
    for (let round = 0; round < options.rounds; round++) {
      for (const size of round % 2 === 0 ? (['small', 'large'] as const) : (['large', 'small'] as const)) {
        const measured = await timeToReady(size === 'small' ? small : large, adminKey);
        samples[size].push({ ops: 1, seconds: measured.ms / 1000, latenciesMs: [measured.ms], cpuMicros: measured.cpuMicros });
        options.progress(
          `restart: round ${round + 1}, ${held[size]} events: ready after ${(measured.ms / 1000).toFixed(2)} s` +
            (measured.cpuMicros === undefined ? '' : ` (${(measured.cpuMicros / 1e6).toFixed(2)} s of CPU)`),
        );
      }
    }
    const baseline = toRow(`spawn to /health/ready 200, ${held.small} events`, 'baseline', samples.small);
    const ours = toRow(`spawn to /health/ready 200, ${held.large} events (${options.factor}×)`, 'ours', samples.large, baseline);
    const ratio = ours.ratio?.p50;
    const checks: Check[] = [
      {
        name: `DATA_DIRs hold the events asked for`,
        ok: held.small >= BigInt(target.small) && held.large >= BigInt(target.large),
        detail: `${held.small} ≥ ${target.small} and ${held.large} ≥ ${target.large}`,
      },
      {
        name: `time to ready with ${options.factor}× the events within ${GOAL_RATIO}× (p50)`,
        ok: ratio !== undefined && ratio <= GOAL_RATIO,
        detail: `${fmt(ours.p50Ms)} against ${fmt(baseline.p50Ms)}: ${ratio?.toFixed(2) ?? '?'}×` + (ours.ratio?.perCpu === undefined ? '' : `; CPU to ready ${(1 / ours.ratio.perCpu).toFixed(2)}×`),
        goal: true,
      },
    ];
    return {
      id: 'restart',
      title: `restart after SIGKILL: spawn to /health/ready on a DATA_DIR of ${held.small} events against one of ${held.large} (${options.factor}×), ${options.rounds} restarts each`,
      unit: 'restart',
      settings: { events: options.events, factor: options.factor, rounds: options.rounds, held: { small: Number(held.small), large: Number(held.large) } },
      rows: [baseline, ours],
      checks,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function fmt(ms: number | undefined): string {
  return ms === undefined ? '?' : `${(ms / 1000).toFixed(2)} s`;
}

/** Writes through the public API until the DATA_DIR's log reaches a number of events; accounts are numbered across fills. */
class Filler {
  private accounts = 0;
  private readonly run = randomBytes(4).toString('hex');

  constructor(private readonly adminKey: string) {}

  async fill(dataDir: string, events: number, progress: (line: string) => void): Promise<bigint> {
    const port = await freePort();
    const service = startService(dataDir, port, this.adminKey);
    const base = `http://127.0.0.1:${port}`;
    try {
      await waitReady(base, service);
      const store = await EmbeddedEventStore.open(path.join(dataDir, 'events'));
      try {
        let head = await store.headPosition();
        let reported = 0n;
        while (head < BigInt(events)) {
          await Promise.all(Array.from({ length: FILL_CLIENTS }, () => this.account(base)));
          head = await store.headPosition();
          if (head - reported >= BigInt(Math.max(1000, Math.floor(events / 10)))) {
            progress(`restart: ${head} events`);
            reported = head;
          }
        }
        return head;
      } finally {
        await store.close();
      }
    } finally {
      // As the probe stopped it: no shutdown, whatever was in flight is recovered by the next start.
      await kill(service);
    }
  }

  /** One account's share of the mix: signup, enterprise tier, consents with a zone and a ping batch each, arrivals, look-ups. */
  private async account(base: string): Promise<void> {
    const n = this.accounts++;
    const call = caller(base);
    const signup = await call('POST', '/v2/self/signup', undefined, { name: `Restart ${n}`, email: `restart-${this.run}-${n}@example.com` });
    const key = String(signup.key);
    const me = await call('GET', '/v2/me', key);
    await call('PUT', `/v2/admin/accounts/${String(me.account_id)}/tier`, this.adminKey, { tier: 'enterprise' });
    const at = Date.now();
    for (let c = 0; c < CUSTOMERS_PER_ACCOUNT; c++) {
      const customer = `cust-${n}-${c}`;
      const lat = 5.55 + ((n * 7 + c) % 100) * 0.001;
      const lng = -0.21 + ((n * 3 + c) % 100) * 0.001;
      await call('POST', '/v2/consent/grant', key, { customer_id: customer, purpose: 'loan_collections' });
      await call('PUT', `/v2/monitoring/zones/${customer}`, key, { lat, lng, tolerance_hops: 2 });
      const pings = Array.from({ length: PINGS_PER_CUSTOMER }, (_, i) => ({
        customer_id: customer,
        lat: lat + i * 0.0001,
        lng,
        recorded_at: new Date(at - (PINGS_PER_CUSTOMER - i) * 60_000).toISOString(),
      }));
      await call('POST', '/v2/monitoring/pings', key, { pings });
    }
    for (let a = 0; a < ARRIVALS_PER_ACCOUNT; a++) {
      const lat = 5.56 + a * 0.002;
      await call('POST', '/v2/navigation/arrival', key, {
        origin: { lat: lat + 0.03, lng: -0.2 },
        destination: { lat, lng: -0.18 },
        end: { lat, lng: -0.18 },
        elapsed_s: 900,
        mode: 'car',
        depart_at: new Date(at - 3_600_000).toISOString(),
      });
    }
    for (let q = 0; q < LOOKUPS_PER_ACCOUNT; q++) await call('GET', `/v2/reverse?lat=${(5.6 + q * 0.001).toFixed(4)}&lng=-0.187`, key);
  }
}

/** Spawn to the first 200 from /health/ready, and the CPU the process spent until then (Linux: /proc); then SIGKILL. */
async function timeToReady(dataDir: string, adminKey: string): Promise<{ ms: number; cpuMicros?: number }> {
  const port = await freePort();
  const started = performance.now();
  const service = startService(dataDir, port, adminKey);
  try {
    await waitReady(`http://127.0.0.1:${port}`, service, 10);
    const ms = performance.now() - started;
    return { ms, cpuMicros: cpuMicrosOf(service.pid) };
  } finally {
    await kill(service);
  }
}

function startService(dataDir: string, port: number, adminKey: string): ChildProcess {
  return spawn(process.execPath, [ENTRY], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_API_KEY: adminKey,
      LOG_LEVEL: 'error',
      NODE_ENV: 'production',
      STARTER_DATA: 'false',
      // One client address signs every account of the mix up and sends every arrival.
      SIGNUP_LIMIT_PER_IP_PER_HOUR: '10000000',
      THROTTLE_NAVIGATION_PER_MINUTE: '100000',
      THROTTLE_PUBLIC_PER_MINUTE: '100000000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function waitReady(base: string, service: ChildProcess, pollMs = 100): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (service.exitCode !== null) throw new Error(`the service exited with code ${service.exitCode} while starting`);
    try {
      if ((await fetch(`${base}/health/ready`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  throw new Error(`the service was not ready within ${READY_TIMEOUT_MS / 1000} s`);
}

async function kill(service: ChildProcess): Promise<void> {
  if (service.exitCode !== null || service.signalCode !== null) return;
  const exited = new Promise((resolve) => service.once('exit', resolve));
  service.kill('SIGKILL');
  await exited;
}

/** User + system CPU of a live process, from /proc/<pid>/stat (clock ticks of 10 ms); undefined where there is no /proc. */
function cpuMicrosOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return undefined;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function caller(base: string) {
  return async (method: string, url: string, key?: string, body?: unknown): Promise<Record<string, unknown>> => {
    const response = await fetch(`${base}${url}`, {
      method,
      headers: { ...(key ? { 'x-api-key': key } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${text.slice(0, 300)}`);
    return text === '' ? {} : ((JSON.parse(text) as { data?: Record<string, unknown> }).data ?? {});
  };
}
